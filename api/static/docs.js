/* The /docs page: reads /openapi.json and lists every endpoint with its request and
   response schema. Plain DOM code, no external library. */
"use strict";

(function () {
  const root = document.getElementById("docs");

  function el(tag, cls, text) {
    const e = document.createElement(tag);
    if (cls) e.className = cls;
    if (text !== undefined && text !== null) e.textContent = text;
    return e;
  }

  function refName(ref) {
    return ref.split("/").pop();
  }

  function resolve(doc, schema) {
    let s = schema || {};
    const seen = new Set();
    while (s.$ref && !seen.has(s.$ref)) {
      seen.add(s.$ref);
      s = doc.components.schemas[refName(s.$ref)] || {};
    }
    return s;
  }

  /** A one-line type: "string", "integer 1–3", "array<Arrangement> ≤ 10", "a | b". */
  function typeText(doc, schema) {
    if (!schema) return "any";
    if (schema.$ref) return refName(schema.$ref);
    const alts = schema.anyOf || schema.oneOf;
    if (alts) return alts.map((s) => typeText(doc, s)).join(" | ");
    if (schema.enum) return schema.enum.map((v) => JSON.stringify(v)).join(" | ");
    if (schema.const !== undefined) return JSON.stringify(schema.const);
    let t = Array.isArray(schema.type) ? schema.type.join(" | ") : (schema.type || "any");
    if (t === "array") t = "array<" + typeText(doc, schema.items) + ">";
    const lim = [];
    if (schema.minimum !== undefined || schema.maximum !== undefined) {
      lim.push((schema.minimum ?? "…") + "–" + (schema.maximum ?? "…"));
    }
    if (schema.exclusiveMinimum !== undefined) lim.push("> " + schema.exclusiveMinimum);
    if (schema.exclusiveMaximum !== undefined) lim.push("< " + schema.exclusiveMaximum);
    if (schema.minItems !== undefined || schema.maxItems !== undefined) {
      lim.push((schema.minItems ?? 0) + "–" + (schema.maxItems ?? "…") + " items");
    }
    if (schema.minLength !== undefined || schema.maxLength !== undefined) {
      lim.push((schema.minLength ?? 0) + "–" + (schema.maxLength ?? "…") + " chars");
    }
    if (schema.pattern) lim.push("pattern " + schema.pattern);
    return lim.length ? t + " (" + lim.join(", ") + ")" : t;
  }

  function schemaTable(doc, schema) {
    const s = resolve(doc, schema);
    const props = s.properties || {};
    const names = Object.keys(props);
    if (!names.length) {
      return el("p", "schema-type", typeText(doc, schema));
    }
    const required = new Set(s.required || []);
    const table = el("table", "schema");
    const head = table.createTHead().insertRow();
    ["Field", "Type", "Required", "Default", "Description"].forEach((h) => {
      const th = el("th", null, h);
      th.scope = "col";
      head.appendChild(th);
    });
    const body = table.createTBody();
    names.forEach((name) => {
      const p = props[name];
      const tr = body.insertRow();
      tr.appendChild(el("td", "field-name", name)).classList.add("mono");
      const typeCell = el("td", "mono");
      appendType(doc, typeCell, p);
      tr.appendChild(typeCell);
      tr.appendChild(el("td", null, required.has(name) ? "yes" : ""));
      tr.appendChild(el("td", "mono", p.default !== undefined ? JSON.stringify(p.default) : ""));
      tr.appendChild(el("td", null, p.description || p.title || ""));
    });
    return table;
  }

  /** The type text with every referenced component name as a link to its section. */
  function appendType(doc, cell, schema) {
    const text = typeText(doc, schema);
    const names = Object.keys(doc.components.schemas || {}).sort((a, b) => b.length - a.length);
    if (!names.length) {
      cell.textContent = text;
      return;
    }
    const escaped = names.map((n) => n.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"));
    const re = new RegExp("\\b(" + escaped.join("|") + ")\\b", "g");
    let last = 0;
    let m;
    while ((m = re.exec(text)) !== null) {
      cell.appendChild(document.createTextNode(text.slice(last, m.index)));
      const a = el("a", null, m[1]);
      a.href = "#schema-" + m[1];
      cell.appendChild(a);
      last = m.index + m[1].length;
    }
    cell.appendChild(document.createTextNode(text.slice(last)));
  }

  function jsonContent(obj) {
    return obj && obj.content && obj.content["application/json"]
      ? obj.content["application/json"].schema
      : null;
  }

  function endpoint(doc, path, method, op) {
    const sec = el("section", "endpoint");
    sec.id = op.operationId || (method + path).replace(/[^a-z0-9]+/gi, "-");
    const h = el("h3");
    h.appendChild(el("span", "method method-" + method, method.toUpperCase()));
    h.appendChild(el("code", "path", path));
    sec.appendChild(h);
    if (op.summary) sec.appendChild(el("p", "summary", op.summary));
    if (op.description && op.description !== op.summary) sec.appendChild(el("p", null, op.description));
    const reqSchema = jsonContent(op.requestBody);
    if (reqSchema) {
      sec.appendChild(el("h4", null, "Request body (application/json)"));
      sec.appendChild(schemaTable(doc, reqSchema));
    }
    const responses = op.responses || {};
    const codes = Object.keys(responses);
    if (codes.length) {
      sec.appendChild(el("h4", null, "Responses"));
      const ul = el("ul", "responses");
      codes.forEach((code) => {
        const li = el("li");
        li.appendChild(el("span", "status status-" + code[0], code));
        li.appendChild(document.createTextNode(" " + (responses[code].description || "")));
        const schema = jsonContent(responses[code]);
        if (schema) {
          li.appendChild(document.createTextNode(" \u2014 "));
          const t = el("span", "mono");
          appendType(doc, t, schema);
          li.appendChild(t);
        }
        ul.appendChild(li);
      });
      sec.appendChild(ul);
    }
    return sec;
  }

  function render(doc) {
    root.replaceChildren();
    const info = doc.info || {};
    root.appendChild(el("h1", null, (info.title || "API") + (info.version ? " " + info.version : "")));
    if (info.description) root.appendChild(el("p", "lead", info.description));
    const links = el("p", "links");
    const a = el("a", null, "openapi.json");
    a.href = "/openapi.json";
    const home = el("a", null, "solver page");
    home.href = "/";
    links.append(home, document.createTextNode(" \u00b7 "), a);
    root.appendChild(links);

    const paths = doc.paths || {};
    const toc = el("nav", "toc");
    toc.setAttribute("aria-label", "Endpoints");
    const tocList = el("ul");
    toc.appendChild(tocList);
    root.appendChild(el("h2", null, "Endpoints"));
    root.appendChild(toc);
    const list = el("div", "endpoints");
    Object.keys(paths).forEach((path) => {
      Object.keys(paths[path]).forEach((method) => {
        const op = paths[path][method];
        const sec = endpoint(doc, path, method, op);
        list.appendChild(sec);
        const li = el("li");
        const link = el("a");
        link.href = "#" + sec.id;
        link.appendChild(el("span", "method method-" + method, method.toUpperCase()));
        link.appendChild(el("code", null, path));
        li.appendChild(link);
        tocList.appendChild(li);
      });
    });
    root.appendChild(list);

    const schemas = (doc.components && doc.components.schemas) || {};
    const names = Object.keys(schemas).sort();
    if (names.length) {
      root.appendChild(el("h2", null, "Schemas"));
      names.forEach((name) => {
        const sec = el("section", "component");
        sec.id = "schema-" + name;
        sec.appendChild(el("h3", "mono", name));
        if (schemas[name].description) sec.appendChild(el("p", null, schemas[name].description));
        sec.appendChild(schemaTable(doc, schemas[name]));
        root.appendChild(sec);
      });
    }
  }

  fetch("/openapi.json", { headers: { Accept: "application/json" } })
    .then((r) => {
      if (!r.ok) throw new Error("GET /openapi.json answered " + r.status);
      return r.json();
    })
    .then(render)
    .catch((err) => {
      root.replaceChildren(el("h1", null, "API documentation"),
        el("p", "error", "Could not load the API description: " + err.message));
    });
})();
