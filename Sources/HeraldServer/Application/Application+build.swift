import Foundation
import HeraldAPI
import HeraldStorage
import Hummingbird
import Logging
import OpenAPIHummingbird
import OpenAPIRuntime
import ServiceLifecycle

/// Builds the HTTP application. The executable and the tests both call this.
/// - Parameter services: already opened services (tests); nil opens the configured database.
public func buildApplication(
    _ configuration: HeraldConfiguration,
    services: HeraldServices? = nil,
    logger: Logger? = nil,
    background: [any Service] = [],
    stopLimit: Duration? = nil
) async throws -> some ApplicationProtocol {
    var logger = logger ?? Logger(label: "herald")
    logger.logLevel = configuration.logLevel
    let services = if let services { services } else { try await HeraldServices.open(configuration, logger: logger) }
    let registry = HeraldMetrics.registry

    let router = Router(context: BasicRequestContext.self)
    // A span per request when traces are exported; its context goes with each event it accepts.
    if configuration.otelEndpoint != nil { router.add(middleware: TracingMiddleware()) }
    router.add(middleware: MetricsMiddleware())
    router.add(middleware: LogRequestsMiddleware(.debug))
    let spec = try OpenAPISpec.text()
    router.add(middleware: ErrorMiddleware(routes: RouteTable(openAPI: spec, extra: RealtimeRoutes.undocumented)))
    router.add(middleware: NULGuardMiddleware())
    router.add(middleware: ContentTypeMiddleware())
    router.add(middleware: RateLimitMiddleware(limiter: RateLimiter(limits: configuration.rateLimits)))
    router.add(middleware: BodyLimitMiddleware(maxBytes: configuration.maxBodyBytes))
    router.add(middleware: CredentialsMiddleware())

    router.get("/openapi.yaml") { _, _ in
        Response(status: .ok, headers: [.contentType: "application/yaml; charset=utf-8"], body: .init(byteBuffer: ByteBuffer(string: spec)))
    }
    let cardSchema = try OpenAPISpec.cardSchema()
    router.get("/card-schema.json") { _, _ in
        Response(status: .ok, headers: [.contentType: "application/schema+json"], body: .init(byteBuffer: ByteBuffer(string: cardSchema)))
    }
    // `/metrics` on its own port when one is set (so that it need not face the internet).
    let metricsRouter = configuration.metricsPort == nil ? router : Router(context: BasicRequestContext.self)
    metricsRouter.get("/metrics") { _, _ in
        Response(
            status: .ok,
            headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8"],
            body: .init(byteBuffer: ByteBuffer(bytes: registry.emitToBuffer()))
        )
    }
    try APIHandler(services: services).registerHandlers(
        on: GeneratedRoutes(base: router, skipping: HotRoutes.operations.union(MatrixRoutes.operations)),
        configuration: .init(dateTranscoder: MillisecondDates())
    )
    HotRoutes.register(on: router, services: services)
    MatrixRoutes.register(on: router, services: services)
    RealtimeRoutes.register(on: router, services: services)
    try Dashboard.register(on: router, services: services)

    var app = Application(
        router: router,
        server: RealtimeRoutes.server(services: services, pingInterval: configuration.realtime.pingInterval),
        configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "Herald"),
        onServerRunning: { [logger] channel in
            logger.info(
                "Herald is listening",
                metadata: [
                    "version": "\(HeraldVersion.version)", "commit": "\(HeraldVersion.commit ?? "development")",
                    "address": "\(channel.localAddress.map { "\($0)" } ?? "\(configuration.host):\(configuration.port)")",
                    "database": "\(configuration.database.kind)", "engine": "\(configuration.engineWorkers ? "on" : "off")",
                ]
            )
        },
        logger: logger
    )
    // Graceful shutdown goes through services in reverse order, each finishing before the next:
    // the workers stop, then the database and provider connections close.
    app.addServices(ShutdownService(logger: logger) { try await services.shutdown() }, RealtimeBackgroundService(realtime: services.realtime))
    for service in background { app.addServices(service) }
    if let metricsPort = configuration.metricsPort {
        var metricsLogger = logger
        metricsLogger.logLevel = .warning
        app.addServices(
            Application(
                router: metricsRouter,
                configuration: .init(address: .hostname(configuration.host, port: metricsPort), serverName: "Herald"),
                logger: metricsLogger
            )
        )
    }
    if configuration.engineWorkers {
        let engine = DeliveryEngineService(
            engine: services.engine,
            logger: logger,
            shared: services.store.isShared,
            claimTimeout: configuration.realtime.claimTimeout
        )
        app.addServices(
            engine,
            MaintenanceService(services: services, logger: logger),
            CampaignService(services: services, logger: logger)
        )
    }
    // Added last, so told first: a graceful stop that has not ended within its limit ends the process.
    if let stopLimit { app.addServices(ShutdownWatchdog(logger: logger, limit: stopLimit)) }
    return app
}
