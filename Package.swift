// swift-tools-version:6.1
import PackageDescription

let swiftSettings: [SwiftSetting] = [
    .enableUpcomingFeature("ExistentialAny")
]

let package = Package(
    name: "Herald",
    platforms: [.macOS(.v14), .iOS(.v16)],
    products: [
        .executable(name: "herald", targets: ["herald"]),
        .library(name: "HeraldKit", targets: ["HeraldKit"]),
        .library(name: "HeraldCards", targets: ["HeraldCards"]),
        .library(name: "HeraldModels", targets: ["HeraldModels"]),
    ],
    dependencies: [
        .package(url: "https://github.com/hummingbird-project/hummingbird.git", from: "2.28.1"),
        .package(url: "https://github.com/hummingbird-project/swift-openapi-hummingbird.git", from: "2.1.0"),
        .package(url: "https://github.com/hummingbird-project/hummingbird-websocket.git", from: "2.8.1"),
        .package(url: "https://github.com/hummingbird-project/swift-mustache.git", from: "2.1.1"),
        .package(url: "https://github.com/apple/swift-openapi-generator.git", from: "1.14.3"),
        .package(url: "https://github.com/apple/swift-openapi-runtime.git", from: "1.13.4"),
        .package(url: "https://github.com/vapor/sql-kit.git", from: "3.36.0"),
        .package(url: "https://github.com/groue/GRDB.swift.git", from: "7.10.0"),
        .package(url: "https://github.com/vapor/postgres-kit.git", from: "2.17.0"),
        .package(url: "https://github.com/vapor/postgres-nio.git", from: "1.33.2"),
        .package(url: "https://github.com/apple/swift-nio.git", from: "2.101.2"),
        .package(url: "https://github.com/apple/swift-crypto.git", "3.12.3"..<"5.0.0"),
        .package(url: "https://github.com/apple/swift-nio-ssl.git", from: "2.37.6"),
        .package(url: "https://github.com/apple/swift-nio-extras.git", from: "1.35.2"),
        .package(url: "https://github.com/apple/swift-nio-http2.git", from: "1.46.0"),
        .package(url: "https://github.com/swift-server/async-http-client.git", from: "1.37.0"),
        .package(url: "https://github.com/apple/swift-certificates.git", from: "1.21.1"),
        .package(url: "https://github.com/apple/swift-asn1.git", from: "1.7.4"),
        .package(url: "https://github.com/apple/swift-argument-parser.git", from: "1.8.2"),
        .package(url: "https://github.com/apple/swift-http-types.git", from: "1.8.0"),
        .package(url: "https://github.com/apple/swift-log.git", from: "1.16.2"),
        .package(url: "https://github.com/apple/swift-metrics.git", from: "2.13.0"),
        .package(url: "https://github.com/swift-server/swift-prometheus.git", from: "2.4.1"),
        .package(url: "https://github.com/swift-server/swift-service-lifecycle.git", from: "2.13.0"),
        .package(url: "https://github.com/apple/swift-configuration.git", from: "1.4.0", traits: ["YAML"]),
        .package(url: "https://github.com/apple/swift-system.git", from: "1.8.1"),
        .package(url: "https://github.com/jpsim/Yams.git", from: "6.2.2"),
        .package(url: "https://github.com/apple/swift-distributed-tracing.git", from: "1.7.3"),
        .package(url: "https://github.com/swift-otel/swift-otel.git", from: "1.6.0", traits: ["OTLPHTTP"]),
    ],
    targets: [
        // Wire types shared by server, SDK and CLI. Foundation only.
        .target(name: "HeraldModels", swiftSettings: swiftSettings),
        // The REST contract: openapi.yaml is the source of truth.
        .target(
            name: "HeraldAPI",
            dependencies: [
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime")
            ],
            // Compiled into the binary: the release is one file, with no resource bundle beside it.
            resources: [.embedInCode("openapi.yaml"), .embedInCode("card-schema.json")],
            swiftSettings: swiftSettings,
            plugins: [.plugin(name: "OpenAPIGenerator", package: "swift-openapi-generator")]
        ),
        // Domain and use cases; declares the ports adapters implement. No I/O frameworks.
        .target(
            name: "HeraldCore",
            dependencies: [
                "HeraldModels",
                .product(name: "Tracing", package: "swift-distributed-tracing"),
                .product(name: "Mustache", package: "swift-mustache"),
                // Pure computation (RFC 8291 payload encryption); no I/O.
                .product(name: "Crypto", package: "swift-crypto"),
            ],
            exclude: ["README.md"],
            swiftSettings: swiftSettings
        ),
        // Provider clients (APNs, FCM, webhook, HMS) and credential validation.
        .target(
            name: "HeraldProviders",
            dependencies: [
                "HeraldCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOFoundationCompat", package: "swift-nio"),
                .product(name: "NIOTLS", package: "swift-nio"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "Logging", package: "swift-log"),
            ],
            swiftSettings: swiftSettings
        ),
        // SQLite's process-wide settings, which Swift cannot make (sqlite3_config is variadic).
        .target(name: "CSQLiteSettings", dependencies: [.product(name: "GRDBSQLite", package: "GRDB.swift")]),
        // Repositories written once on SQLKit; SQLite (GRDB, the system's SQLite) and PostgreSQL; migrations.
        .target(
            name: "HeraldStorage",
            dependencies: [
                "HeraldCore",
                "CSQLiteSettings",
                .product(name: "SQLKit", package: "sql-kit"),
                .product(name: "GRDB", package: "GRDB.swift"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
                .product(name: "PostgresKit", package: "postgres-kit"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
            ],
            // A repository's body runs on the caller's executor, and so do the helpers it calls:
            // on SQLite's writer that is the connection's own thread, where statements run at once.
            swiftSettings: swiftSettings + [.enableUpcomingFeature("NonisolatedNonsendingByDefault")]
        ),
        // Composition root: routes, auth, services.
        .target(
            name: "HeraldServer",
            dependencies: [
                "HeraldModels", "HeraldAPI", "HeraldCore", "HeraldProviders", "HeraldStorage", "HeraldCards",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "Mustache", package: "swift-mustache"),
                .product(name: "HummingbirdCore", package: "hummingbird"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOWebSocket", package: "swift-nio"),
                .product(name: "NIOHTTPTypes", package: "swift-nio-extras"),
                .product(name: "NIOHTTPTypesHTTP1", package: "swift-nio-extras"),
                .product(name: "OpenAPIRuntime", package: "swift-openapi-runtime"),
                .product(name: "OpenAPIHummingbird", package: "swift-openapi-hummingbird"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "Metrics", package: "swift-metrics"),
                .product(name: "Prometheus", package: "swift-prometheus"),
                .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
                .product(name: "Logging", package: "swift-log"),
                .product(name: "Configuration", package: "swift-configuration"),
                .product(name: "SystemPackage", package: "swift-system"),
                .product(name: "Yams", package: "Yams"),
                .product(name: "OTel", package: "swift-otel"),
                .product(name: "Tracing", package: "swift-distributed-tracing"),
            ],
            // The dashboard's templates, stylesheet and script, compiled into the binary like the
            // OpenAPI document: one entry per file (DashboardTemplate lists the templates).
            resources: [
                .embedInCode("Dashboard/Templates/layout.mustache"),
                .embedInCode("Dashboard/Templates/login.mustache"),
                .embedInCode("Dashboard/Templates/error.mustache"),
                .embedInCode("Dashboard/Templates/overview.mustache"),
                .embedInCode("Dashboard/Templates/settings.mustache"),
                .embedInCode("Dashboard/Templates/providers.mustache"),
                .embedInCode("Dashboard/Templates/provider.mustache"),
                .embedInCode("Dashboard/Templates/templates.mustache"),
                .embedInCode("Dashboard/Templates/template.mustache"),
                .embedInCode("Dashboard/Templates/template-preview.mustache"),
                .embedInCode("Dashboard/Templates/users.mustache"),
                .embedInCode("Dashboard/Templates/user.mustache"),
                .embedInCode("Dashboard/Templates/events.mustache"),
                .embedInCode("Dashboard/Templates/event.mustache"),
                .embedInCode("Dashboard/Templates/deliveries.mustache"),
                .embedInCode("Dashboard/Templates/feed.mustache"),
                .embedInCode("Dashboard/Templates/card-template.mustache"),
                .embedInCode("Dashboard/Templates/card-preview.mustache"),
                .embedInCode("Dashboard/Templates/campaign-new.mustache"),
                .embedInCode("Dashboard/Templates/campaign.mustache"),
                .embedInCode("Dashboard/Assets/dashboard.css"),
                .embedInCode("Dashboard/Assets/dashboard.js"),
            ],
            swiftSettings: swiftSettings
        ),
        // Client SDK for iOS apps; never imports a server module.
        .target(
            name: "HeraldKit",
            dependencies: ["HeraldModels", "HeraldCards", .product(name: "Crypto", package: "swift-crypto")],
            swiftSettings: swiftSettings
        ),
        // Feed cards: typed models of the Card Schema, colours, and an HTML renderer (SDK and dashboard).
        .target(name: "HeraldCards", dependencies: ["HeraldModels"], swiftSettings: swiftSettings),
        .executableTarget(
            name: "herald",
            dependencies: [
                "HeraldServer",
                .product(name: "ArgumentParser", package: "swift-argument-parser"),
            ],
            swiftSettings: swiftSettings,
            // The server allocates on every push (payloads, rows, frames, task contexts): with
            // jemalloc it spends ~15 % less CPU per push than with glibc's allocator (measured by
            // `Benchmarks/run-all.sh`, README "Speed"). Linked as Debian's shared `libjemalloc.so.2`
            // (package `libjemalloc2`), which comes before glibc in the binary's needed libraries,
            // so every `malloc` and `free` in the process — glibc's own, the Swift runtime's,
            // SQLite's — resolves to it. Not its static archive: the release links the Swift
            // runtime statically with `--exclude-libs ALL`, which would hide jemalloc's `malloc`
            // from glibc and let one allocator free the other's memory.
            linkerSettings: [.linkedLibrary("jemalloc", .when(platforms: [.linux]))]
        ),
        .target(
            name: "HeraldTestSupport",
            dependencies: [
                "HeraldServer", "HeraldStorage", "HeraldCore", "HeraldModels", "HeraldProviders",
                .product(name: "Hummingbird", package: "hummingbird"),
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOPosix", package: "swift-nio"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
                .product(name: "NIOHTTP1", package: "swift-nio"),
                .product(name: "NIOHTTP2", package: "swift-nio-http2"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "X509", package: "swift-certificates"),
                .product(name: "SwiftASN1", package: "swift-asn1"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
            ],
            path: "Tests/HeraldTestSupport",
            exclude: ["Fixtures/make-fixtures.py"],
            resources: [.copy("Fixtures")],
            swiftSettings: swiftSettings
        ),
        // The load harness (Benchmarks/README.md).
        .executableTarget(
            name: "herald-bench",
            dependencies: [
                "HeraldProviders", "HeraldTestSupport", "HeraldCore", "HeraldModels",
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            path: "Benchmarks/HeraldBench",
            swiftSettings: swiftSettings
        ),
        // Golden payloads shared by the server's and the SDK's tests.
        .target(
            name: "HeraldFixtures",
            dependencies: ["HeraldModels"],
            path: "Tests/HeraldFixtures",
            exclude: ["make-payload-fixtures.py"],
            resources: [.copy("Payloads")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HeraldCoreTests",
            dependencies: ["HeraldCore", "HeraldModels", "HeraldFixtures", .product(name: "Mustache", package: "swift-mustache")],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HeraldProvidersTests",
            dependencies: [
                "HeraldProviders", "HeraldTestSupport", "HeraldCore",
                .product(name: "Crypto", package: "swift-crypto"),
                .product(name: "_CryptoExtras", package: "swift-crypto"),
                .product(name: "AsyncHTTPClient", package: "async-http-client"),
                .product(name: "NIOConcurrencyHelpers", package: "swift-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "NIOEmbedded", package: "swift-nio"),
                .product(name: "NIOHPACK", package: "swift-nio-http2"),
                .product(name: "NIOSSL", package: "swift-nio-ssl"),
            ],
            swiftSettings: swiftSettings
        ),
        // The SDK against a live server; its payload parsing against the server's golden payloads.
        .testTarget(
            name: "HeraldKitTests",
            dependencies: ["HeraldKit", "HeraldCards", "HeraldFixtures", "HeraldTestSupport"],
            exclude: ["Snapshots"],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HeraldStorageTests",
            dependencies: [
                "HeraldStorage", "HeraldTestSupport",
                .product(name: "PostgresNIO", package: "postgres-nio"),
                .product(name: "NIOCore", package: "swift-nio"),
                .product(name: "GRDBSQLite", package: "GRDB.swift"),
            ],
            swiftSettings: swiftSettings
        ),
        .testTarget(
            name: "HeraldServerTests",
            dependencies: [
                "HeraldServer", "HeraldTestSupport", "HeraldProviders", "HeraldStorage", "HeraldModels", "HeraldCore",
                .product(name: "HummingbirdTesting", package: "hummingbird"),
                .product(name: "HummingbirdWSClient", package: "hummingbird-websocket"),
                .product(name: "HTTPTypes", package: "swift-http-types"),
                .product(name: "SQLKit", package: "sql-kit"),
            ],
            swiftSettings: swiftSettings
        ),
    ]
)
