// The SDK client as a well-behaved host uses it: a tool call that finds
// its datasource still opening (DATASOURCE_INDEXING, retryable) is sent
// again after a pause, as the error's hint says, until the call's own
// time is up; a list_datasources that shows a datasource "indexing" is
// listed again the same way. Every other result, error or not, is
// returned as it came.
import { Client as SDKClient } from "@modelcontextprotocol/sdk/client/index.js";

const INDEXING = /^DATASOURCE_INDEXING\b/;
const RETRY_FOR_MS = 120_000;

export class Client extends SDKClient {
  async callTool(params, resultSchema, options) {
    const until = Date.now() + RETRY_FOR_MS;
    for (;;) {
      const res = await super.callTool(params, resultSchema, options);
      const text = res?.isError ? (res.content ?? []).map((c) => c.text ?? "").join("\n") : "";
      const listing = (res?.structuredContent?.datasources ?? []).some((d) => d.status === "indexing");
      if ((!INDEXING.test(text) && !listing) || Date.now() > until) return res;
      await new Promise((r) => setTimeout(r, 300));
    }
  }
}
