"""tools/ grouped by job (issue 33): at its top only README.md, budgets.py, hostenv.py and
folders; every job folder on the path (hostenv.JOBS, pytest's pythonpath) with its README and
the same toolpath.py, which gives a tool run from its folder tools/, firmware/ and every job
folder; a tool's bare name unique across those folders (a tool imports another by it)."""

import os
import subprocess
import sys

import hostenv
from test_import_circles import PATH

ROOT = hostenv.ROOT
TOOLS = os.path.join(ROOT, "tools")
TOP_FILES = {"README.md", "budgets.py", "hostenv.py"}


def test_the_top_of_tools_holds_only_its_readme_budgets_hostenv_and_folders():
    files = {f for f in os.listdir(TOOLS) if not os.path.isdir(os.path.join(TOOLS, f))}
    assert files == TOP_FILES, sorted(files - TOP_FILES)  # a new tool goes into its job's folder


def test_every_folder_of_tools_is_a_job_folder_or_a_package_or_says_what_it_holds():
    for f in sorted(os.listdir(TOOLS)):
        path = os.path.join(TOOLS, f)
        if not os.path.isdir(path) or f.startswith((".", "__")):
            continue
        assert (f in hostenv.JOBS or os.path.isfile(os.path.join(path, "__init__.py"))
                or os.path.isfile(os.path.join(path, "README.md"))), f


def test_the_job_folders_are_on_the_path_with_the_same_toolpath():
    def code(job):  # (each names its folder in its docstring's one line)
        with open(os.path.join(TOOLS, job, "toolpath.py")) as f:
            doc, rest = f.read().split("\n", 1)
        assert doc.startswith('"""') and "tools/%s/" % job in doc, job
        return rest

    toolpath = code("maker")
    for job in hostenv.JOBS + ("sim",):
        folder = os.path.join(TOOLS, job)
        assert os.path.isfile(os.path.join(folder, "README.md" if job != "sim" else
                                           "__init__.py")), job
        assert code(job) == toolpath, job  # one way in, whichever folder's is found
        if job != "sim":
            assert "tools/" + job in PATH, job  # (pytest's pythonpath, before tools/)
            assert PATH.index("tools/" + job) < PATH.index("tools"), job


def test_a_tool_run_from_its_folder_finds_tools_firmware_and_every_job_folder(tmp_path):
    """As `python tools/<job>/x.py` runs: sys.path[0] the folder, then `import toolpath`."""
    script = tmp_path / "probe.py"
    script.write_text("import sys\nsys.path[0] = sys.argv[1]\nimport toolpath  # noqa: F401\n"
                      "import build, cvd, history, localnet, tablegen, budgets\n"
                      "from cribbage import score  # noqa: F401\n"
                      "print('\\n'.join(sys.path))\n")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    for job in hostenv.JOBS + ("sim",):
        r = subprocess.run([sys.executable, str(script), os.path.join(TOOLS, job)], cwd=tmp_path,
                           env=env, capture_output=True, text=True, timeout=60)
        assert r.returncode == 0, (job, r.stderr)
        path = r.stdout.splitlines()
        for need in ["tools", "firmware", "tools/host"] + ["tools/" + j for j in hostenv.JOBS]:
            assert os.path.join(ROOT, need) in path, (job, need)


def test_a_bare_name_is_one_module_across_the_tools_folders():
    """Two tools of one name in two job folders: `import name` would find whichever folder
    comes first on the path, not the one meant."""
    seen = {}
    for folder in ("tools", "tools/host") + tuple("tools/" + j for j in hostenv.JOBS):
        for f in os.listdir(os.path.join(ROOT, folder)):
            package = os.path.isdir(os.path.join(ROOT, folder, f))
            if package and (f.startswith((".", "__")) or (folder == "tools" and (
                    f in hostenv.JOBS or f == "host"))):
                continue  # (the job folders themselves: not imported as modules)
            if f == "toolpath.py" or not (package or f.endswith(".py")):
                continue
            name = f if package else f[:-3]
            assert name not in seen, (name, seen.get(name), folder)
            seen[name] = folder
