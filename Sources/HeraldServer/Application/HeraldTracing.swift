import Foundation
import OTel
import ServiceLifecycle

/// OpenTelemetry traces, exported over OTLP/HTTP when `HERALD_OTEL_ENDPOINT` (or `otel.endpoint`
/// in the configuration file) names a collector; off otherwise. Only the tracer is bootstrapped:
/// logs stay Herald's JSON lines and metrics its Prometheus registry.
enum HeraldTracing {
    static func bootstrap(endpoint: String, protocol wire: String) throws -> some Service {
        var configuration = OTel.Configuration.default
        configuration.serviceName = "herald"
        configuration.resourceAttributes["service.version"] = HeraldVersion.version
        configuration.logs.enabled = false
        configuration.metrics.enabled = false
        configuration.traces.enabled = true
        let base = endpoint.hasSuffix("/") ? String(endpoint.dropLast()) : endpoint
        configuration.traces.otlpExporter.endpoint = base + "/v1/traces"
        configuration.traces.otlpExporter.protocol = wire == "http/json" ? .httpJSON : .httpProtobuf
        configuration.traces.batchSpanProcessor.scheduleDelay = .seconds(1)
        return try OTel.bootstrap(configuration: configuration)
    }
}
