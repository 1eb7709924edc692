"""poker-ts (npm), run in the QuickJS worker: installing it, and its modules as one classic script.

The worker has no ``require``: ``poker_ts_prelude.js`` is a small CommonJS loader, and
``bundle`` writes the package's ``dist/`` modules as one script for it, each file's text verbatim
inside ``__commonjsDefine(path, function (exports, require, module) {...})``. Nothing of the
package is changed. ``poker_ts_adapter.js`` maps its Table to ``PokerEngine.createHand``.

The package is installed with ``npm install --prefix CACHE/npm poker-ts@VERSION`` when it is not
there yet (CACHE: ``$HOLDEM_CACHE``, else ``~/.cache/holdem-conformance``), saying so on stderr.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

from conformance.outfiles import write_text

PACKAGE = "poker-ts"
VERSION = "1.5.0"  # pinned: the findings in docs/implementations.md are about this version
PRELUDE = Path(__file__).with_name("poker_ts_prelude.js")  # the CommonJS loader the worker lacks
ADAPTER = Path(__file__).with_name("poker_ts_adapter.js")  # PokerEngine.createHand over poker-ts's Table
INSTALL_SECONDS = 300


class Unavailable(Exception):
    """poker-ts cannot be installed here (no npm, no network): the reason, for a skip."""


def cache_dir() -> Path:
    return Path(os.environ.get("HOLDEM_CACHE") or Path.home() / ".cache" / "holdem-conformance")


def package_dir(cache: Path | None = None) -> Path:
    return (cache or cache_dir()) / "npm" / "node_modules" / PACKAGE


def installed_version(cache: Path | None = None) -> str | None:
    try:
        return json.loads((package_dir(cache) / "package.json").read_text(encoding="utf-8")).get("version")
    except (OSError, ValueError):
        return None


def install(cache: Path | None = None, log=sys.stderr) -> Path:
    """The package's directory, installed with npm first when absent (saying so on ``log``)."""
    cache = cache or cache_dir()
    if installed_version(cache) == VERSION:
        return package_dir(cache)
    npm = shutil.which("npm")
    if npm is None:
        raise Unavailable(f"{PACKAGE} {VERSION} is not in {cache / 'npm'} and npm is not on PATH")
    print(f"installing {PACKAGE} {VERSION} with npm into {cache / 'npm'} (absent)", file=log, flush=True)
    (cache / "npm").mkdir(parents=True, exist_ok=True)
    command = [npm, "install", "--prefix", str(cache / "npm"), "--no-audit", "--no-fund", "--no-save",
               f"{PACKAGE}@{VERSION}"]
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=INSTALL_SECONDS)
    except subprocess.TimeoutExpired:
        raise Unavailable(f"npm install {PACKAGE}@{VERSION} took over {INSTALL_SECONDS} s (no network?)") from None
    if done.returncode != 0 or installed_version(cache) != VERSION:
        tail = (done.stderr or done.stdout).strip().splitlines()[-3:]
        raise Unavailable(f"npm install {PACKAGE}@{VERSION} failed (exit {done.returncode}): {' / '.join(tail)}")
    return package_dir(cache)


def bundle(package: Path) -> str:
    """The package's ``dist/**/*.js`` as one classic script for ``poker_ts_prelude.js``."""
    main = json.loads((package / "package.json").read_text(encoding="utf-8")).get("main", "index.js")
    parts = [f"/* {PACKAGE} {VERSION}: dist/ as one classic script, each module verbatim in a CommonJS wrapper "
             "(conformance/implementations/poker_ts.py) */\n"]
    for path in sorted((package / "dist").rglob("*.js")):
        name = f"{PACKAGE}/{path.relative_to(package).with_suffix('').as_posix()}"
        parts.append(f"__commonjsDefine({json.dumps(name)}, function (exports, require, module) {{\n"
                     f"{path.read_text(encoding='utf-8')}\n}});\n")
    parts.append(f"__commonjsMains[{json.dumps(PACKAGE)}] = {json.dumps(PACKAGE + '/' + main.removesuffix('.js'))};\n")
    return "".join(parts)


def bundle_path(cache: Path | None = None) -> Path:
    return (cache or cache_dir()) / f"{PACKAGE}-{VERSION}.js"


def engine_file(cache: Path | None = None, log=sys.stderr) -> Path:
    """The bundled package as ENGINE.js (in the cache), installing and bundling it when needed."""
    package = install(cache, log)
    out = bundle_path(cache)
    text = bundle(package)
    if not out.exists() or out.read_text(encoding="utf-8") != text:
        write_text(out, text)
    return out


def prepare() -> str | None:
    """The registry's hook (registry.py): poker-ts installed and bundled; what was done, if anything."""
    absent = installed_version() != VERSION
    engine_file(log=open(os.devnull, "w", encoding="utf-8"))
    return f"installed {PACKAGE} {VERSION} with npm into {cache_dir() / 'npm'} (it was absent)" if absent else None


def engine_args(cache: Path | None = None, log=sys.stderr) -> list[str]:
    """``holdem-cert engine`` arguments that certify poker-ts in QuickJS."""
    return [str(engine_file(cache, log)), "--prelude", str(PRELUDE), "--adapter", str(ADAPTER)]
