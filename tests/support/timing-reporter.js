// A Jest reporter that prints, after the run, how long it took and its ten slowest test files
// (wall time from the file's start to its end, and how much of it the tests' bodies took), so
// that a tier's growth is seen the day it comes. `scripts/test` runs one phase per Jest run.
"use strict";

class TimingReporter {
  constructor(globalConfig, options = {}) {
    this.count = options.count ?? 10;
    this.rootDir = globalConfig.rootDir;
  }

  onRunComplete(_contexts, results) {
    const files = results.testResults
      .map((file) => ({
        name: file.testFilePath.startsWith(this.rootDir + "/")
          ? file.testFilePath.slice(this.rootDir.length + 1)
          : file.testFilePath,
        seconds: (file.perfStats.end - file.perfStats.start) / 1000,
        bodies: file.testResults.reduce((sum, test) => sum + (test.duration ?? 0), 0) / 1000,
      }))
      .sort((a, b) => b.seconds - a.seconds);
    const total = (Date.now() - results.startTime) / 1000;
    const lines = [`timing: ${files.length} files in ${total.toFixed(1)} s; the slowest:`];
    for (const file of files.slice(0, this.count)) {
      lines.push(
        `timing: ${file.seconds.toFixed(1).padStart(7)} s (tests ${file.bodies.toFixed(1)} s)  ${file.name}`,
      );
    }
    process.stderr.write(lines.join("\n") + "\n");
  }
}

module.exports = TimingReporter;
