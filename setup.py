"""Only what pyproject.toml cannot say: the wheel carries the suite's data (vectors, schemas,
house bots, the docs its messages cite) inside the package, as conformance/_data/ (see conformance/resources.py)."""
import shutil
from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py

DATA_ITEMS = ("vectors", "schemas", "bots", "bots.json", "docs")  # conformance.resources.DATA_ITEMS


class BuildPyWithData(build_py):
    def run(self):
        super().run()
        target = Path(self.build_lib) / "conformance" / "_data"
        for item in DATA_ITEMS:
            source = Path(item)
            if source.is_dir():
                shutil.copytree(source, target / item, dirs_exist_ok=True,
                                ignore=shutil.ignore_patterns("__pycache__", "*.pyc", ".*", "*.png"))
            else:
                target.mkdir(parents=True, exist_ok=True)
                shutil.copy2(source, target / item)


setup(cmdclass={"build_py": BuildPyWithData})
