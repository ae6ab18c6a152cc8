import { OTLPTraceExporter as OtlpJsonExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OtlpProtobufExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { resourceFromAttributes } from '@opentelemetry/resources';
import {
  BasicTracerProvider,
  BatchSpanProcessor,
  ConsoleSpanExporter,
  type SpanExporter,
} from '@opentelemetry/sdk-trace-base';
import packageJson from '../../package.json' with { type: 'json' };
import { GatewayTracing } from './call-tracing.ts';

/** Tracing as configured by the environment, and how to flush it at shutdown. */
export interface TracingSetup {
  readonly tracing: GatewayTracing;
  /** Exports what is buffered and stops; a no-op when tracing is off. */
  shutdown(): Promise<void>;
}

const OFF: TracingSetup = { tracing: GatewayTracing.off, shutdown: async () => undefined };

/**
 * Reads only the standard OpenTelemetry variables: `OTEL_SDK_DISABLED`, `OTEL_TRACES_EXPORTER`
 * (`otlp`, `console` or `none`, the default), `OTEL_EXPORTER_OTLP[_TRACES]_PROTOCOL` (`http/protobuf`,
 * the default, or `http/json`), `OTEL_EXPORTER_OTLP[_TRACES]_ENDPOINT`, `..._HEADERS`, `OTEL_SERVICE_NAME`,
 * `OTEL_TRACES_SAMPLER[_ARG]` and `OTEL_BSP_*`. Anything it cannot honour is an error at start.
 */
export function tracingFromEnvironment(env: NodeJS.ProcessEnv = process.env): TracingSetup {
  if ((env.OTEL_SDK_DISABLED ?? '').toLowerCase() === 'true') return OFF;
  const exporters = (env.OTEL_TRACES_EXPORTER ?? 'none')
    .split(',')
    .map((e) => e.trim().toLowerCase())
    .filter((e) => e !== '' && e !== 'none');
  if (exporters.length === 0) return OFF;
  const spanProcessors = exporters.map((name) => new BatchSpanProcessor(exporterNamed(name, env)));
  const provider = new BasicTracerProvider({
    resource: resourceFromAttributes({
      'service.name': env.OTEL_SERVICE_NAME || 'toolgate',
      'service.version': packageJson.version,
    }),
    spanProcessors,
  });
  return {
    tracing: new GatewayTracing(provider.getTracer('toolgate', packageJson.version)),
    shutdown: () => provider.shutdown(),
  };
}

function exporterNamed(name: string, env: NodeJS.ProcessEnv): SpanExporter {
  if (name === 'console') return new ConsoleSpanExporter();
  if (name !== 'otlp') {
    throw new Error(`OTEL_TRACES_EXPORTER=${name} is not supported; use otlp, console or none`);
  }
  const protocol =
    env.OTEL_EXPORTER_OTLP_TRACES_PROTOCOL || env.OTEL_EXPORTER_OTLP_PROTOCOL || 'http/protobuf';
  // The signal-specific endpoint is used as given; the general one gets the traces path appended.
  const base = env.OTEL_EXPORTER_OTLP_ENDPOINT?.replace(/\/+$/, '');
  const url = env.OTEL_EXPORTER_OTLP_TRACES_ENDPOINT || (base ? `${base}/v1/traces` : undefined);
  const config = url ? { url } : {};
  if (protocol === 'http/json') return new OtlpJsonExporter(config);
  if (protocol === 'http/protobuf') return new OtlpProtobufExporter(config);
  throw new Error(`OTEL_EXPORTER_OTLP_PROTOCOL=${protocol} is not supported; use http/protobuf or http/json`);
}
