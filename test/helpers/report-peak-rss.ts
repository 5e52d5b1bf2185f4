// Preloaded into a process under test (`node --require …/report-peak-rss.js`): as the process exits, writes its peak
// resident memory in bytes to the file PEAK_RSS_FILE names. The kernel's own count (getrusage), for this process only.
import * as fs from "node:fs";

const file = process.env["PEAK_RSS_FILE"];
if (file !== undefined) process.on("exit", () => fs.writeFileSync(file, String(process.resourceUsage().maxRSS * 1024)));
