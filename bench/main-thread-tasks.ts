// The tasks of a page's renderer main thread, read from a Chromium trace taken with the "toplevel" category: what the
// benchmarks report as the longest task (elapsed, and on a CPU).
export interface MainThreadTask {
  /** Elapsed ms, and ms the thread was on a CPU. */
  wall: number;
  cpu: number;
}

interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  dur?: number;
  tdur?: number;
  args?: { name?: string };
}

/** The tasks of the busiest renderer main thread in the trace (the page's). */
export function mainThreadTasks(trace: Buffer): MainThreadTask[] {
  const events = (JSON.parse(trace.toString("utf8")) as { traceEvents: TraceEvent[] }).traceEvents;
  const mainThreads = new Set(events.filter((e) => e.ph === "M" && e.name === "thread_name" && e.args?.name === "CrRendererMain").map((e) => `${e.pid}:${e.tid}`));
  const byThread = new Map<string, MainThreadTask[]>();
  for (const event of events) {
    const thread = `${event.pid}:${event.tid}`;
    if (event.ph !== "X" || event.name !== "ThreadControllerImpl::RunTask" || !mainThreads.has(thread)) continue;
    const tasks = byThread.get(thread) ?? [];
    tasks.push({ wall: (event.dur ?? 0) / 1000, cpu: (event.tdur ?? 0) / 1000 });
    byThread.set(thread, tasks);
  }
  const busy = (tasks: MainThreadTask[]) => tasks.reduce((all, task) => all + task.wall, 0);
  const tasks = [...byThread.values()].sort((a, b) => busy(b) - busy(a))[0] ?? [];
  if (tasks.length === 0) throw new Error("the trace holds no renderer main-thread tasks");
  return tasks;
}
