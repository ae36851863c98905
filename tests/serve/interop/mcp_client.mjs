// Drives a CompoWorld MCP server with the official TypeScript SDK client, as MCP hosts do.
//
// Usage: node mcp_client.mjs PLAN_JSON
//   PLAN_JSON: {"transport": "stdio", "command": "...", "args": [...]}
//           or {"transport": "http", "url": "http://127.0.0.1:PORT/mcp"},
//           with "calls": [{"name": "...", "arguments": {...}}, ...] and "timeout_ms".
//   An argument value {"$result": I, "key": "K"} stands for field K of call I's structured content.
//
// It lists every page of tools, then makes the calls in order. The client validates a result's
// structured content against the output schemas of the tools of the page it listed last, so before
// each call it lists again the page that holds the tool: every call is validated as the SDK does.
// It prints one JSON report on stdout:
//   {"server": {...}, "pages": N, "tools": [{"name", "outputSchema", "annotations"}],
//    "calls": [{"name", "result": CallToolResult} or {"name", "thrown": {"name", "code", "message"}}]}
// and exits 0; any failure outside a call exits non-zero with the reason on stderr.

import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StdioClientTransport } from "@modelcontextprotocol/sdk/client/stdio.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

const plan = JSON.parse(process.argv[2] ?? "{}");
const timeoutMs = plan.timeout_ms ?? 120000;
const watchdog = setTimeout(() => {
  process.stderr.write(`mcp_client.mjs: gave up after ${timeoutMs} ms\n`);
  process.exit(3);
}, timeoutMs);

function transportOf(plan) {
  if (plan.transport === "stdio") {
    return new StdioClientTransport({
      command: plan.command,
      args: plan.args ?? [],
      env: { ...process.env },
      stderr: "inherit",
    });
  }
  if (plan.transport === "http") {
    return new StreamableHTTPClientTransport(new URL(plan.url));
  }
  throw new Error(`unknown transport ${plan.transport}`);
}

function resolve(value, calls) {
  if (Array.isArray(value)) return value.map((v) => resolve(v, calls));
  if (value !== null && typeof value === "object") {
    if ("$result" in value) return calls[value.$result]?.result?.structuredContent?.[value.key];
    return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, resolve(v, calls)]));
  }
  return value;
}

async function main() {
  const client = new Client({ name: "compoworld-interop", version: "1.0.0" });
  const transport = transportOf(plan);
  await client.connect(transport);
  const report = { server: client.getServerVersion() ?? null, pages: 0, tools: [], calls: [] };
  const pageOf = new Map();
  let listed;
  let cursor;
  do {
    const params = cursor === undefined ? {} : { cursor };
    listed = params;
    const page = await client.listTools(params);
    report.pages += 1;
    for (const tool of page.tools) {
      pageOf.set(tool.name, params);
      report.tools.push({
        name: tool.name,
        outputSchema: tool.outputSchema !== undefined,
        annotations: tool.annotations ?? null,
      });
    }
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  for (const call of plan.calls ?? []) {
    const args = resolve(call.arguments ?? {}, report.calls);
    const params = pageOf.get(call.name);
    if (params !== undefined && listed !== params) {
      await client.listTools(params);
      listed = params;
    }
    try {
      const result = await client.callTool({ name: call.name, arguments: args });
      report.calls.push({ name: call.name, result });
    } catch (error) {
      report.calls.push({
        name: call.name,
        thrown: { name: error?.constructor?.name ?? "Error", code: error?.code ?? null, message: String(error?.message ?? error) },
      });
    }
  }
  await client.close();
  // Exit only once the whole report is written: stdout to a pipe is asynchronous.
  process.stdout.write(JSON.stringify(report) + "\n", () => process.exit(0));
}

main().then(
  () => {
    clearTimeout(watchdog);
  },
  (error) => {
    process.stderr.write(`mcp_client.mjs: ${error?.stack ?? error}\n`);
    process.exit(2);
  },
);
