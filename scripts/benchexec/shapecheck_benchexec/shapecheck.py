# BenchExec tool-info module for shapecheck, a verifier for heap-manipulating C programs.
#
# BenchExec loads it by its full module name: put scripts/benchexec on PYTHONPATH and name the
# tool `shapecheck_benchexec.shapecheck` in the benchmark definition (see
# scripts/benchexec/shapecheck-svcomp.xml). For a submission to SV-COMP, the same file goes to
# benchexec/tools/shapecheck.py.
#
# The run: `shapecheck verify --property PRP --data-model ILP32|LP64 --timeout CPU
# --malloc never-fails --witness witness.yml FILE`; the first line of output is the verdict
# (TRUE, FALSE(property), UNKNOWN), the witness (YAML format 2.0) is left in the working
# directory for BenchExec's <resultfiles>.

import benchexec.result as result
import benchexec.tools.template
from benchexec.tools.sv_benchmarks_util import ILP32, LP64, get_data_model_from_task

# The verdict line's FALSE(...) property -> BenchExec's result.
_FALSE = {
    "unreach-call": result.RESULT_FALSE_REACH,
    "valid-deref": result.RESULT_FALSE_DEREF,
    "valid-free": result.RESULT_FALSE_FREE,
    "valid-memtrack": result.RESULT_FALSE_MEMTRACK,
    "valid-memcleanup": result.RESULT_FALSE_MEMCLEANUP,
}


class Tool(benchexec.tools.template.BaseTool2):
    """
    shapecheck: shape analysis of C programs that build and traverse linked lists and trees
    (lazy shape analysis, template invariants, explicit heaps, in a portfolio). TRUE comes
    with a re-checked certificate, FALSE with a replayed counterexample.
    """

    REQUIRED_PATHS = [".deps/z3/lib"]

    def executable(self, tool_locator):
        return tool_locator.find_executable("shapecheck", subdir="target/release")

    def name(self):
        return "shapecheck"

    def project_url(self):
        return "https://github.com/shapecheck/shapecheck"

    def version(self, executable):
        return self._version_from_tool(executable).replace("shapecheck", "").strip()

    def cmdline(self, executable, options, task, rlimits):
        cmd = [executable, "verify"] + list(options)
        if task.property_file and "--property" not in options:
            cmd += ["--property", task.property_file]
        model = get_data_model_from_task(task, {ILP32: "ILP32", LP64: "LP64"})
        if model and "--data-model" not in options:
            cmd += ["--data-model", model]
        if rlimits.cputime and "--timeout" not in options:
            cmd += ["--timeout", str(rlimits.cputime)]
        if "--malloc" not in options:
            # The tasks' expected verdicts were written under SV-COMP's rule that allocation
            # succeeds; tasks written since guard their allocations, so either model agrees.
            cmd += ["--malloc", "never-fails"]
        if "--witness" not in options:
            cmd += ["--witness", "witness.yml"]
        return cmd + [task.single_input_file]

    def determine_result(self, run):
        lines = [line.strip() for line in run.output if line.strip()]
        verdict = lines[0] if lines else ""
        if verdict == "TRUE":
            return result.RESULT_TRUE_PROP
        if verdict.startswith("FALSE(") and verdict.endswith(")"):
            prop = verdict[len("FALSE(") : -1]
            return _FALSE.get(prop, result.RESULT_ERROR + f" (unknown property {prop})")
        if verdict == "UNKNOWN":
            if run.was_timeout:
                return result.RESULT_TIMEOUT
            return result.RESULT_UNKNOWN
        if run.was_timeout:
            return result.RESULT_TIMEOUT
        if run.exit_code.value == 2:
            return result.RESULT_ERROR + " (bad input)"
        return result.RESULT_ERROR

    def get_value_from_output(self, output, identifier):
        # `stats: ... N.NN s` and other `key: value` lines of the report.
        for line in output:
            if line.startswith(identifier + ":"):
                return line[len(identifier) + 1 :].strip()
        return None
