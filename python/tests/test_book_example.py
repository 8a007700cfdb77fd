"""The book's Python example writes book/src/generated/python_example.txt: the committed
file must be what the example prints now (NONSMOOTH_BLESS=1 rewrites it). The README's
Python block must run."""

import os
import pathlib
import re
import subprocess
import sys

ROOT = pathlib.Path(__file__).resolve().parents[2]
GENERATED = ROOT / "book" / "src" / "generated" / "python_example.txt"


def test_generated_output_is_up_to_date():
    run = subprocess.run([sys.executable, str(ROOT / "python" / "examples" / "book_example.py")],
                         capture_output=True, text=True, check=True)
    text = run.stdout
    if os.environ.get("NONSMOOTH_BLESS"):
        GENERATED.write_text(text)
    assert GENERATED.exists(), f"{GENERATED} is missing: run with NONSMOOTH_BLESS=1"
    assert GENERATED.read_text() == text, (
        f"{GENERATED} is out of date: run `NONSMOOTH_BLESS=1 pytest python/tests/test_book_example.py`"
    )


def test_readme_python_block_runs():
    readme = (ROOT / "README.md").read_text()
    blocks = re.findall(r"```python\n(.*?)```", readme, flags=re.S)
    assert blocks, "README.md has no Python block"
    for code in blocks:
        namespace = {}
        exec(compile(code, "README.md", "exec"), namespace)
        assert namespace["result"].converged
        assert namespace["report"].contacts.shape == (namespace["problem"].contacts,)
