"""The API's description: ``GET /api/openapi.json`` (OpenAPI 3.1, made by
spectree from the routes' models and docstrings; error answers are
``application/problem+json``) and ``GET /api/docs``, a page that reads it
(every operation, its parameters and answers, the problem kinds, the
models), drawn on the server: no script, nothing from elsewhere. Both are
open without a token. Issue 28; docs/api.md."""
from __future__ import annotations

import copy
import json
from typing import Any

from flask import current_app, render_template

from pbem.web.api.core import bp, spec
from pbem.web.api.problems import KINDS, PROBLEM_JSON, problem_type
from pbem.web.inputs import MAX_ID

_ETAG = {"ETag": {"description": "the answer's version: send it back as If-None-Match", "schema": {"type": "string"}}}
_RATE = {name: {"description": text, "schema": {"type": "string"}} for name, text in (
    ("RateLimit-Limit", "requests allowed in the window"),
    ("RateLimit-Remaining", "requests left in the window"),
    ("RateLimit-Reset", "seconds until the window starts again"))}


def document() -> dict[str, Any]:
    """The OpenAPI document (a new dict each call)."""
    doc = copy.deepcopy(spec.spec)
    for item in doc["paths"].values():
        for method, op in item.items():
            for param in op.get("parameters", []):
                schema = param.get("schema") or {}
                if param.get("in") == "path" and schema.get("type") == "integer":
                    # what the routes' <int:...> accepts (pbem.web.inputs.BoundedInt)
                    schema.setdefault("minimum", 0)
                    schema.setdefault("maximum", MAX_ID)
            for code, answer in op.get("responses", {}).items():
                content = answer.get("content") or {}
                if code[0] in "45" and "application/json" in content:
                    answer["content"] = {PROBLEM_JSON: content["application/json"]}
                if code == "200":
                    answer["headers"] = {**(_ETAG if method == "get" else {}), **_RATE}
                if code == "304":
                    answer.pop("content", None)
                    answer["description"] = "Not Modified: the If-None-Match ETag is current"
    doc["info"]["x-problem-types"] = {kind: problem_type(kind) for kind in KINDS}
    return doc


@bp.route("/openapi.json")
def openapi():
    """The OpenAPI 3.1 document."""
    return current_app.response_class(json.dumps(document(), indent=1), mimetype="application/json")


@bp.route("/docs")
def docs():
    """The API's documentation page."""
    doc = document()
    operations = []
    for path, item in doc["paths"].items():
        for method, op in item.items():
            operations.append({"path": path, "method": method.upper(), **op,
                               "body": _body_schema(op), "anchor": op.get("operationId", path)})
    schemas = {name: json.dumps(schema, indent=1) for name, schema in sorted(doc["components"]["schemas"].items())}
    return render_template("web/api_docs.html", doc=doc, operations=operations, schemas=schemas,
                           kinds=KINDS, problem_type=problem_type,
                           version_line=f"v{doc['info']['version']} · OpenAPI {doc['openapi']}")


def _body_schema(op: dict) -> str | None:
    content = (op.get("requestBody") or {}).get("content") or {}
    for media in content.values():
        ref = media.get("schema", {}).get("$ref", "")
        return ref.rsplit("/", 1)[-1] or None
    return None
