"""What the layers load at run time (the static graph, cycles and upward imports: tests/test_imports.py)."""
import subprocess
import sys


def test_the_fact_language_loads_no_engine():
    """Reading and checking facts needs neither pyDatalog nor the rules."""
    code = ("import sys, provlog.facts; "
            "print(sorted(m for m in sys.modules if m == 'pyDatalog' or m.startswith('provlog.logic')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout
    assert out.strip() == "[]"


def test_the_source_checkout_imports_without_the_installed_mapping():
    """`python -m provlog` in the repository's root after a plain `pip install .`: this folder's provlog/
    shadows the installed package, and finds its subpackages beside it (provlog/__init__.py)."""
    import subprocess
    import sys
    from pathlib import Path

    root = Path(__file__).resolve().parent.parent
    code = ("import sys; sys.meta_path[:] = [f for f in sys.meta_path if 'editable' not in repr(f).lower()]; "
            f"sys.path.insert(0, {str(root)!r}); import provlog.queries.cli, provlog.logic.program; "
            "print(provlog.logic.program.__file__)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, cwd=root)
    assert out.returncode == 0, out.stderr
    assert out.stdout.strip() == str(root / "logic" / "program.py")
