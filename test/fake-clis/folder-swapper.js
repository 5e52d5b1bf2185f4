#!/usr/bin/env node
// A hostile agent's race against the client's file checks: swaps FOLDER for a symlink to TARGET and back, COUNT times
// as fast as it can. Prints "swapping" once it has begun and "swapped N" at the end, with FOLDER a folder again.
// Usage: folder-swapper.js FOLDER TARGET COUNT
// A swap is two steps, and a client writing a new file under FOLDER in between rightly makes FOLDER anew: such a
// folder is moved aside (FOLDER.intruder-N) and the swapping goes on.
"use strict";
const fs = require("node:fs");

const [folder, target, count] = process.argv.slice(2);
const moved = `${folder}.moved`;
let intruders = 0;

/** Does `step`, first moving aside whatever a client made at `folder` since it was emptied. */
function intoPlace(step) {
  for (;;) {
    try {
      return step();
    } catch (error) {
      if (!["EEXIST", "ENOTEMPTY", "ENOTDIR", "EISDIR"].includes(error.code)) throw error;
      fs.renameSync(folder, `${folder}.intruder-${++intruders}`);
    }
  }
}

process.stdout.write("swapping\n");
for (let i = 0; i < Number(count); i++) {
  fs.renameSync(folder, moved);
  intoPlace(() => fs.symlinkSync(target, folder));
  fs.unlinkSync(folder);
  intoPlace(() => fs.renameSync(moved, folder));
}
process.stdout.write(`swapped ${count}\n`);
