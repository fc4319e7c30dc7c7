"""The import rules of docs/architecture.md, checked over the sources: layers go one way
(`tournaments -> scoring -> club`), and no module reaches for another module's private
(underscore) names."""

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
APPS = ("club", "scoring", "tournaments")


def modules(app: str) -> list[Path]:
    return sorted(p for p in (ROOT / app).rglob("*.py") if "migrations" not in p.parts)


def imported(path: Path) -> list[tuple[str, list[str]]]:
    """(module, names) of every import in `path`, at any depth (function-level ones too)."""
    found = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            found += [(alias.name, []) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.append((node.module, [alias.name for alias in node.names]))
    return found


@pytest.mark.parametrize(("app", "forbidden"), [
    ("club", ("scoring", "tournaments")),
    ("scoring", ("tournaments",)),
])
def test_layers_go_one_way(app, forbidden):
    wrong = [
        f"{path.relative_to(ROOT)}: {module}"
        for path in modules(app)
        for module, _names in imported(path)
        if module.split(".")[0] in forbidden
    ]
    assert wrong == []


def test_no_module_imports_private_names_of_another():
    """Neither `from x import _name` nor `x._name` (a model's `_meta` is Django's public API)."""
    own = set(APPS)
    wrong = []
    for app in APPS:
        for path in modules(app):
            tree = ast.parse(path.read_text())
            module_aliases = set()
            for module, names in imported(path):
                if module.split(".")[0] not in own:
                    continue
                wrong += [f"{path.relative_to(ROOT)}: {module}.{name}"
                          for name in names if name.startswith("_")]
                module_aliases.update(names)
            for node in ast.walk(tree):
                if (isinstance(node, ast.Attribute) and node.attr.startswith("_")
                        and not node.attr.startswith("__") and node.attr != "_meta"
                        and isinstance(node.value, ast.Name) and node.value.id in module_aliases):
                    wrong.append(f"{path.relative_to(ROOT)}: {node.value.id}.{node.attr}")
    assert wrong == []
