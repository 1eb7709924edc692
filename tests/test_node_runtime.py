"""Which node runs JavaScript on V8 (conformance/host/node_runtime.py): the pinned node 24 from npm,
installed into the cache on first need, else the system's node 20+, else none; HOLDEM_NODE chooses."""
import stat
import sys

import pytest

from conformance.host import node_runtime, npm_cache


def fake_node(path, version):
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"#!/bin/sh\necho v{version}\n")
    path.chmod(path.stat().st_mode | stat.S_IEXEC)
    return path


@pytest.fixture
def clean(monkeypatch, tmp_path):
    """No node found so far, an empty cache, and a PATH of our own."""
    monkeypatch.setattr(node_runtime, "_found", {})
    monkeypatch.setenv("HOLDEM_CACHE", str(tmp_path / "cache"))
    monkeypatch.delenv("HOLDEM_NODE", raising=False)
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    monkeypatch.setenv("PATH", str(bin_dir))
    return bin_dir


def stand_in_npm(bin_dir, package, version):
    """An npm that 'installs' a node printing ``version`` where npm would put node's binary."""
    npm = bin_dir / "npm"
    npm.write_text("#!/bin/sh\n"  # npm install --prefix DIR ... PACKAGE@VERSION
                   'echo "$@" > "$3/args"\n'
                   f'd="$3/node_modules/{package}"; /bin/mkdir -p "$d/bin"\n'
                   f"echo '{{\"version\": \"{version}\"}}' > \"$d/package.json\"\n"
                   f"printf '#!/bin/sh\\necho v{version}\\n' > \"$d/bin/node\"; /bin/chmod +x \"$d/bin/node\"\n")
    npm.chmod(npm.stat().st_mode | stat.S_IEXEC)


def test_the_pinned_node_is_installed_from_npm_into_the_cache_and_preferred(clean, tmp_path, capsys):
    package = node_runtime.platform_package()
    stand_in_npm(clean, package, node_runtime.VERSION)
    fake_node(clean / "node", "20.20.2")  # a system node that would also do
    node, why = node_runtime.find(log=sys.stderr)
    expected = npm_cache.package_dir(package, node_runtime.VERSION) / "bin" / "node"
    assert node == str(expected) and "pinned" in why and node_runtime.VERSION in why
    args = (npm_cache.prefix(package, node_runtime.VERSION) / "args").read_text()
    assert f"{package}@{node_runtime.VERSION}" in args and "--ignore-scripts" in args
    assert f"installing {package} {node_runtime.VERSION}" in capsys.readouterr().err


def test_without_npm_the_system_node_serves_and_the_reason_is_said(clean):
    system = fake_node(clean / "node", "20.20.2")
    node, why = node_runtime.find()
    assert node == str(system) and "20.20.2" in why and "npm is not on PATH" in why


def test_an_old_system_node_is_not_used(clean):
    fake_node(clean / "node", "18.19.0")
    node, why = node_runtime.find()
    assert node is None and "no node 20 or later" in why


@pytest.mark.parametrize("choice", ["none", "system"])
def test_holdem_node_none_or_system_never_installs(clean, choice, monkeypatch):
    stand_in_npm(clean, node_runtime.platform_package(), node_runtime.VERSION)
    monkeypatch.setenv("HOLDEM_NODE", choice)
    node, why = node_runtime.find()
    assert node is None and f"HOLDEM_NODE={choice}" in why  # system: PATH has npm but no node
    assert not npm_cache.prefix(node_runtime.platform_package(), node_runtime.VERSION).exists()


def test_holdem_node_names_a_node(clean, tmp_path, monkeypatch):
    chosen = fake_node(tmp_path / "elsewhere" / "node", "22.13.0")
    monkeypatch.setenv("HOLDEM_NODE", str(chosen))
    assert node_runtime.find() == (str(chosen), f"node 22.13.0 ({chosen}, HOLDEM_NODE)")
    old = fake_node(tmp_path / "old" / "node", "16.0.0")
    monkeypatch.setenv("HOLDEM_NODE", str(old))
    node, why = node_runtime.find()
    assert node is None and "is not node 20 or later" in why
