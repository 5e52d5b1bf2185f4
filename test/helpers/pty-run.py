# Runs a command under a pseudo-terminal, as a person at a terminal would: waits for each expected text, then types.
# argv[1]: the command line as a JSON array; argv[2]: the steps, a JSON array of {"expect": text} | {"send": text}
# | {"eof": true} (Ctrl-D at the start of a line). Prints {"output", "code", "timedOut"} as JSON once the command
# has exited (its output read to the end). No npm dependency: python3's pty module.
import json, os, pty, select, sys, time

command = json.loads(sys.argv[1])
steps = json.loads(sys.argv[2])
DEADLINE_S = 20.0

pid, fd = pty.fork()
if pid == 0:
    os.execvp(command[0], command)

output = b""
timed_out = False

def read_some(timeout):
    global output
    ready, _, _ = select.select([fd], [], [], timeout)
    if not ready:
        return True
    try:
        chunk = os.read(fd, 65536)
    except OSError:
        return False
    if not chunk:
        return False
    output += chunk
    return True

seen = 0
for step in steps:
    if "expect" in step:
        wanted = step["expect"].encode()
        started = time.time()
        while output.find(wanted, seen) == -1:
            if time.time() - started > DEADLINE_S or not read_some(0.1):
                timed_out = time.time() - started > DEADLINE_S
                break
        found = output.find(wanted, seen)
        if found == -1:
            timed_out = True
            break
        seen = found + len(wanted)
    elif "send" in step:
        os.write(fd, step["send"].encode())
    elif step.get("eof"):
        os.write(fd, b"\x04")

started = time.time()
while read_some(0.1):
    if time.time() - started > DEADLINE_S:
        timed_out = True
        os.kill(pid, 9)
        break
_, status = os.waitpid(pid, 0)
code = os.WEXITSTATUS(status) if os.WIFEXITED(status) else -os.WTERMSIG(status)
print(json.dumps({"output": output.decode("utf8", "replace"), "code": code, "timedOut": timed_out}))
