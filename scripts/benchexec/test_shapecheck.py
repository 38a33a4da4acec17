"""Tests of the tool-info module with the real BenchExec (PYTHONPATH: .deps/benchexec and
scripts/benchexec) and the real shapecheck binary (SHAPECHECK_BIN): the command line a task
gives, and the results BenchExec reads from actual runs (TRUE, FALSE(unreach-call),
FALSE(valid-memtrack), UNKNOWN, bad input)."""

import os
import subprocess
import sys
import tempfile
import unittest

import benchexec.result as result
from benchexec.tools.template import BaseTool2
from benchexec.util import ProcessExitCode

from shapecheck_benchexec.shapecheck import Tool

BIN = os.environ["SHAPECHECK_BIN"]

# SV-COMP's property files.
PROPERTIES = {
    "unreach-call.prp": "CHECK( init(main()), LTL(G ! call(reach_error())) )\n",
    "valid-memsafety.prp": "CHECK( init(main()), LTL(G valid-free) )\n"
    "CHECK( init(main()), LTL(G valid-deref) )\n"
    "CHECK( init(main()), LTL(G valid-memtrack) )\n",
}

CORRECT = """extern int __VERIFIER_nondet_int(void);
extern void reach_error(void);
int main(void) { int x = __VERIFIER_nondet_int(); if (x > 0 && x < 0) reach_error(); return 0; }
"""
BUGGY = CORRECT.replace("x > 0 && x < 0", "x == 42")
LEAK = """#include <stdlib.h>
int main(void) { int *p = malloc(4); p = 0; return 0; }
"""


class ToolInfo(unittest.TestCase):
    def setUp(self):
        self.tool = Tool()
        self.dir = tempfile.TemporaryDirectory()

    def tearDown(self):
        self.dir.cleanup()

    def task(self, source, prp, model="LP64"):
        path = os.path.join(self.dir.name, "t.c")
        with open(path, "w") as f:
            f.write(source)
        prp_path = os.path.join(self.dir.name, prp)
        with open(prp_path, "w") as f:
            f.write(PROPERTIES[prp])
        options = {"language": "C", "data_model": model}
        return BaseTool2.Task.with_files([path], property_file=prp_path, options=options)

    def run_task(self, task, options=()):
        limits = BaseTool2.ResourceLimits(cputime=30)
        cmd = self.tool.cmdline(BIN, list(options), task, limits)
        p = subprocess.run(cmd, cwd=self.dir.name, capture_output=True, text=True)
        run = BaseTool2.Run(
            cmd,
            ProcessExitCode.from_raw(p.returncode << 8),
            BaseTool2.RunOutput(p.stdout.splitlines(keepends=True)),
            None,
        )
        return cmd, self.tool.determine_result(run)

    def test_command_line(self):
        task = self.task(CORRECT, "unreach-call.prp")
        cmd = self.tool.cmdline(BIN, [], task, BaseTool2.ResourceLimits(cputime=60))
        self.assertEqual(cmd[:2], [BIN, "verify"])
        self.assertIn("--data-model", cmd)
        self.assertEqual(cmd[cmd.index("--data-model") + 1], "LP64")
        self.assertEqual(cmd[cmd.index("--timeout") + 1], "60")
        self.assertEqual(cmd[cmd.index("--witness") + 1], "witness.yml")
        self.assertEqual(cmd[-1], task.single_input_file)
        own = self.tool.cmdline(BIN, ["--malloc", "may-fail"], task, BaseTool2.ResourceLimits())
        self.assertEqual(own.count("--malloc"), 1)
        self.assertNotIn("--timeout", own)

    def test_results_of_real_runs(self):
        _, r = self.run_task(self.task(CORRECT, "unreach-call.prp"))
        self.assertEqual(r, result.RESULT_TRUE_PROP)
        _, r = self.run_task(self.task(BUGGY, "unreach-call.prp", "ILP32"))
        self.assertEqual(r, result.RESULT_FALSE_REACH)
        self.assertTrue(os.path.exists(os.path.join(self.dir.name, "witness.yml")))
        _, r = self.run_task(self.task(LEAK, "valid-memsafety.prp"))
        self.assertEqual(r, result.RESULT_FALSE_MEMTRACK)
        bounded = ["--max-steps", "1", "--engine", "explicit"]
        _, r = self.run_task(self.task(BUGGY, "unreach-call.prp"), bounded)
        self.assertEqual(r, result.RESULT_UNKNOWN)
        _, r = self.run_task(self.task("int main(void) { return }", "unreach-call.prp"))
        self.assertTrue(r.startswith(result.RESULT_ERROR), r)

    def test_version(self):
        v = self.tool.version(BIN)
        self.assertRegex(v, r"^[0-9]+\.[0-9]+\.[0-9]+ \(commit ([0-9a-f]{12}|unknown)\)$")


if __name__ == "__main__":
    unittest.main(argv=sys.argv[:1], verbosity=2)
