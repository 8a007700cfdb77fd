"""The book's Python example writes book/src/generated/python_example.txt: the committed
file must be what the example prints now (NONSMOOTH_BLESS=1 rewrites it)."""

import importlib.util
import os
import pathlib

ROOT = pathlib.Path(__file__).resolve().parents[2]
GENERATED = ROOT / "book" / "src" / "generated" / "python_example.txt"


def load_example():
    spec = importlib.util.spec_from_file_location("book_example", ROOT / "python" / "examples" / "book_example.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_generated_output_is_up_to_date():
    text = load_example().output()
    if os.environ.get("NONSMOOTH_BLESS"):
        GENERATED.write_text(text)
    assert GENERATED.exists(), f"{GENERATED} is missing: run with NONSMOOTH_BLESS=1"
    assert GENERATED.read_text() == text, (
        f"{GENERATED} is out of date: run `NONSMOOTH_BLESS=1 pytest python/tests/test_book_example.py`"
    )
