"""The layering contracts (pyproject.toml, [tool.importlinter]) hold, and
they would catch what they are there for: an import hidden inside a
function counts like one at the top of a module (docs/architecture.md,
"The service in wings")."""
from __future__ import annotations

import pkgutil
import subprocess
import sys
import textwrap
import tomllib
from pathlib import Path

import grimp
import pbem

ROOT = Path(__file__).resolve().parents[1]


def _contracts() -> dict[str, dict]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    return {c["id"]: c for c in config["contracts"]}


def test_every_contract_holds():
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 broken" in done.stdout, done.stdout


def test_the_four_rules_of_issue_23_are_contracts():
    contracts = _contracts()
    assert contracts["engine-pure"]["source_modules"] == ["pbem.engine"]
    assert contracts["mail-only-i18n"]["source_modules"] == ["pbem.mail"]
    assert contracts["post-not-play"]["forbidden_modules"] == ["pbem.service.play"]
    assert contracts["web-no-db"]["forbidden_modules"] == ["pbem.service.core.db"]
    assert contracts["service-acyclic"]["type"] == "acyclic_siblings"


def test_only_post_imports_the_outbox_store():
    """Nothing outside post writes the outbox itself: it sends through
    post.send, which asks the mail preferences first (issue 23)."""
    import pkgutil

    import pbem

    contract = _contracts()["post-store-private"]
    assert contract["forbidden_modules"] == ["pbem.service.post.store"]
    import pbem.service

    parts = {f"pbem.{m.name}" for m in pkgutil.iter_modules(pbem.__path__) if m.name != "service"}
    wings = {f"pbem.service.{m.name}" for m in pkgutil.iter_modules(pbem.service.__path__) if m.name != "post"}
    assert set(contract["source_modules"]) == parts | wings


def test_the_areas_point_down_and_the_service_never_imports_the_web():
    """The areas' layers list every part of pbem that imports another, web
    above the service (a notice once borrowed the pages' seat words)."""
    layers = _contracts()["areas"]["layers"]
    assert layers.index("web") < layers.index("service") < layers.index("i18n") < layers.index("engine")
    named = {part for layer in layers for part in layer.split(" : ")}
    parts = {m.name for m in pkgutil.iter_modules(pbem.__path__)}
    assert parts - named <= {"config", "translations"}, parts - named


def test_engine_and_mail_contracts_name_every_other_part_of_pbem():
    """A part of pbem added later is forbidden to the engine (and to mail,
    i18n aside) without anyone remembering to list it."""
    parts = {f"pbem.{m.name}" for m in pkgutil.iter_modules(pbem.__path__)}
    contracts = _contracts()
    assert set(contracts["engine-pure"]["forbidden_modules"]) == parts - {"pbem.engine"}
    assert set(contracts["mail-only-i18n"]["forbidden_modules"]) == parts - {"pbem.mail", "pbem.i18n"}


def test_an_import_inside_a_function_breaks_a_contract(tmp_path, monkeypatch):
    """The graph the contracts are checked on (grimp, as lint-imports builds
    it) holds an import made inside a function, so a deferred import cannot
    hide a forbidden dependency or a cycle."""
    package = tmp_path / "layered"
    (package / "post").mkdir(parents=True)
    (package / "play").mkdir()
    for init in ("__init__.py", "post/__init__.py", "play/__init__.py", "play/turns.py"):
        (package / init).write_text("")
    (package / "post" / "notices.py").write_text(textwrap.dedent("""\
        def tell():
            from layered.play import turns  # deferred: still an import
            return turns
        """))
    monkeypatch.syspath_prepend(str(tmp_path))
    graph = grimp.build_graph("layered", cache_dir=None)
    assert graph.find_modules_directly_imported_by("layered.post.notices") == {"layered.play.turns"}
    (tmp_path / ".importlinter").write_text(textwrap.dedent("""\
        [importlinter]
        root_package = layered

        [importlinter:contract:post-not-play]
        name = post never imports play
        type = forbidden
        source_modules = layered.post
        forbidden_modules = layered.play
        """))
    lint = Path(sys.executable).with_name("lint-imports")
    done = subprocess.run([str(lint), "--no-cache"], cwd=tmp_path, capture_output=True, text=True, timeout=120,
                          env={"PYTHONPATH": str(tmp_path), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 1, done.stdout + done.stderr
    assert "post never imports play BROKEN" in done.stdout, done.stdout
    assert "layered.post.notices -> layered.play.turns" in done.stdout, done.stdout
