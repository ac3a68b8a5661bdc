// A Node.js agent app using the official OpenTelemetry JS SDK, with no grounding of its own:
// it sends one native `ferrumdeck.*` run (an LLM step and two tool steps) over OTLP/HTTP.
//
//   node send_run.js <relay base URL, e.g. http://127.0.0.1:4318> <proto|json> <run id>
//
// SimpleSpanProcessor exports each span as it ends, so the tool spans and the run span reach
// the relay in different requests. Prints {"traceId": ..., "runSpanId": ...} on stdout.
'use strict';

const api = require('@opentelemetry/api');
const { BasicTracerProvider, SimpleSpanProcessor } = require('@opentelemetry/sdk-trace-base');
const { resourceFromAttributes } = require('@opentelemetry/resources');
const { OTLPTraceExporter: ProtoExporter } = require('@opentelemetry/exporter-trace-otlp-proto');
const { OTLPTraceExporter: JsonExporter } = require('@opentelemetry/exporter-trace-otlp-http');

const GOLDEN_OUTPUT =
  'The capital of France is Paris. The Eiffel Tower is in Paris. ' +
  'Bananas are purple and fly to the distant moon.';
const TOOL_OUTPUTS = [
  'Paris is the capital of France.',
  'The Eiffel Tower stands in Paris, France.',
];

async function main() {
  const [base, encoding, runId] = process.argv.slice(2);
  if (!base || !['proto', 'json'].includes(encoding) || !runId) {
    console.error('usage: node send_run.js <relay base URL> <proto|json> <run id>');
    process.exit(2);
  }
  const Exporter = encoding === 'proto' ? ProtoExporter : JsonExporter;
  const exporter = new Exporter({ url: `${base.replace(/\/$/, '')}/v1/traces` });
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({ 'service.name': 'js-agent' }),
    spanProcessors: [new SimpleSpanProcessor(exporter)],
  });
  const tracer = provider.getTracer('js-agent');

  const run = tracer.startSpan('invoke_agent', {
    attributes: {
      'ferrumdeck.run.id': runId,
      'ferrumdeck.project.id': 'acme',
      'ferrumdeck.run.tool_steps': TOOL_OUTPUTS.length,
    },
  });
  const inRun = api.trace.setSpan(api.context.active(), run);
  const llm = tracer.startSpan('chat', { attributes: { 'ferrumdeck.step.type': 'llm' } }, inRun);
  llm.end();
  TOOL_OUTPUTS.forEach((output, index) => {
    const tool = tracer.startSpan(
      `tool_${index}`,
      { attributes: { 'ferrumdeck.step.type': 'tool', 'ferrumdeck.step.output': output } },
      inRun,
    );
    tool.end();
  });
  run.setAttribute('ferrumdeck.run.output', GOLDEN_OUTPUT);
  run.end();

  await provider.forceFlush();
  await provider.shutdown();
  const context = run.spanContext();
  process.stdout.write(JSON.stringify({ traceId: context.traceId, runSpanId: context.spanId }) + '\n');
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
