// The playground: one session of the explorer's /api (the HTTP server's API), driven by forms made from tool schemas.
(function () {
  const root = document.getElementById("pg");
  const api = root.dataset.api;
  const $ = (id) => document.getElementById(id);
  const session = root.dataset.session;
  let tools = {}, calls = 0;

  async function request(method, path, body) {
    const res = await fetch(api + path, {
      method, headers: { "content-type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body), credentials: "same-origin",
    });
    const text = await res.text();
    return text ? JSON.parse(text) : {};
  }
  function el(tag, attrs, text) {
    const e = document.createElement(tag);
    for (const [k, v] of Object.entries(attrs || {})) e.setAttribute(k, v);
    if (text !== undefined) e.textContent = text;
    return e;
  }
  function resolve(schema, defs) {
    if (schema && schema.$ref) return defs[schema.$ref.split("/").pop()] || schema;
    if (schema && schema.anyOf) {
      const real = schema.anyOf.filter((s) => s.type !== "null");
      if (real.length === 1) return Object.assign({}, resolve(real[0], defs), { description: schema.description });
    }
    return schema;
  }
  function renderForm(name) {
    const form = $("pg-form");
    form.innerHTML = "";
    const tool = tools[name];
    $("pg-desc").textContent = tool.description;
    const schema = tool.parameters, defs = schema.$defs || {}, required = schema.required || [];
    for (const [pname, raw] of Object.entries(schema.properties || {})) {
      const p = resolve(raw, defs);
      const label = el("label", {}, pname + (required.includes(pname) ? " *" : "") + (p.type ? " (" + p.type + ")" : ""));
      let input;
      if (p.enum) {
        input = el("select", {});
        input.appendChild(el("option", { value: "" }, ""));
        for (const v of p.enum) input.appendChild(el("option", { value: JSON.stringify(v) }, String(v)));
        input.dataset.kind = "json";
      } else if (p.type === "boolean") {
        input = el("select", {});
        for (const v of ["", "true", "false"]) input.appendChild(el("option", { value: v }, v));
        input.dataset.kind = "json";
      } else if (p.type === "integer" || p.type === "number") {
        input = el("input", { type: "number", step: p.type === "integer" ? "1" : "any" });
        input.dataset.kind = "json";
      } else if (p.type === "object" || p.type === "array" || !p.type) {
        input = el("textarea", { rows: "2", placeholder: "JSON" });
        input.dataset.kind = "json";
      } else {
        input = el("input", { type: "text", placeholder: (p.examples || [])[0] || "" });
        input.dataset.kind = "text";
      }
      input.name = pname;
      input.title = p.description || "";
      label.appendChild(input);
      form.appendChild(label);
    }
  }
  function formArguments() {
    const args = {};
    for (const input of $("pg-form").querySelectorAll("input, select, textarea")) {
      if (input.value === "") continue;
      if (input.dataset.kind === "json") {
        try { args[input.name] = JSON.parse(input.value); } catch (e) { args[input.name] = input.value; }
      } else args[input.name] = input.value;
    }
    return args;
  }
  function logCall(name, args, out) {
    calls += 1;
    const box = el("div", { class: "call" + (out.ok ? "" : " err"), id: "pg-call-" + calls });
    const head = el("div", {});
    head.appendChild(el("b", {}, "call " + calls + " "));
    head.appendChild(el("span", { class: "mono" }, name + " "));
    head.appendChild(el("span", { class: out.ok ? "pass" : "fail" }, out.ok ? "ok" : (out.error || {}).type));
    box.appendChild(head);
    const body = el("div", {});
    body.appendChild(el("pre", {}, JSON.stringify(args)));
    body.appendChild(el("pre", { class: "pg-result" }, JSON.stringify(out.ok ? out.result : out.error, null, 1)));
    box.appendChild(body);
    $("pg-log").prepend(box);
  }
  async function refresh() {
    const diff = await request("GET", "/sessions/" + session + "/diff");
    $("pg-hash").textContent = (diff.state_hash || "").slice(0, 12);
    const target = $("pg-diff");
    target.innerHTML = "";
    const tables = Object.entries(diff.tables || {});
    if (!tables.length) { target.textContent = "No change yet."; target.className = "muted"; return; }
    target.className = "";
    for (const [table, ch] of tables) {
      const box = el("div", { class: "box pg-table" });
      box.appendChild(el("h3", { class: "mono" }, table));
      for (const r of ch.added) box.appendChild(el("div", { class: "mono small" }, "added " + JSON.stringify(r)));
      for (const r of ch.updated)
        box.appendChild(el("div", { class: "mono small" }, "updated " + r.id + ": " +
          r.changed.map((f) => f + ": " + JSON.stringify(r.before[f]) + " → " + JSON.stringify(r.after[f])).join("; ")));
      for (const r of ch.removed) box.appendChild(el("div", { class: "mono small" }, "removed " + JSON.stringify(r)));
      target.appendChild(box);
    }
  }
  async function evaluate() {
    const out = await request("POST", "/sessions/" + session + "/evaluate", { answer: $("pg-answer").value });
    const target = $("pg-rubric");
    target.innerHTML = "";
    target.className = "";
    target.appendChild(el("div", { class: out.passed ? "pass" : "fail" },
      (out.passed ? "passed" : "not passed") + " · " + Math.round(100 * (out.score || 0)) + " % of criteria"));
    const table = el("table", {});
    for (const v of out.criteria || []) {
      const tr = el("tr", {});
      tr.appendChild(el("td", { class: "mono" }, v.id));
      tr.appendChild(el("td", { class: v.passed ? "pass" : "fail" }, v.passed ? "pass" : "FAIL"));
      tr.appendChild(el("td", {}, v.description));
      tr.appendChild(el("td", { class: "small" }, v.detail || ""));
      table.appendChild(tr);
    }
    target.appendChild(table);
  }
  async function main() {
    const list = await request("GET", "/sessions/" + session + "/tools");
    const select = $("pg-tool");
    for (const t of list.tools) {
      tools[t.name] = t;
      select.appendChild(el("option", { value: t.name }, t.name));
    }
    if (root.dataset.tool && tools[root.dataset.tool]) select.value = root.dataset.tool;
    renderForm(select.value);
    select.onchange = () => renderForm(select.value);
    $("pg-call").onclick = async () => {
      const name = select.value, args = formArguments();
      const out = await request("POST", "/sessions/" + session + "/tools/" + name, args);
      logCall(name, args, out);
      await refresh();
      if ($("pg-rubric")) await evaluate();
    };
    $("pg-reset").onclick = async () => { await request("POST", "/sessions/" + session + "/reset"); await refresh(); };
    $("pg-snap").onclick = async () => {
      const snap = await request("POST", "/sessions/" + session + "/snapshots");
      $("pg-snaps").appendChild(el("option", { value: snap.snapshot_id }, snap.snapshot_id + " (" + snap.state_hash.slice(0, 8) + ")"));
      $("pg-snaps").value = snap.snapshot_id;
    };
    $("pg-restore").onclick = async () => {
      const id = $("pg-snaps").value;
      if (id) { await request("POST", "/sessions/" + session + "/snapshots/" + id + "/restore"); await refresh(); }
    };
    if ($("pg-eval")) $("pg-eval").onclick = evaluate;
    await refresh();
    root.dataset.ready = "1";
  }
  main();
})();
