import Foundation
import HeraldTestSupport
import Testing

/// The dashboard in a real browser: `Tests/Browser/dashboard_test.py` drives headless Chromium
/// (Selenium) against a `herald` process whose APNs and FCM are local stand-ins — sign in, add
/// providers by uploading files, a test push and its verdict, a template's live preview, a
/// campaign and its stats, a user's deliveries — and saves a screenshot of every page in
/// `.artifacts/dashboard` (or `HERALD_ARTIFACTS/dashboard`).
///
/// Runs when Chromium, chromedriver and Selenium are installed, and always in CI (`CI=true`),
/// where their absence is a failure: `.ci/run` installs them.
@Suite("Dashboard in a browser")
struct DashboardBrowserTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var toolsInstalled: Bool {
        let files = FileManager.default
        let browser = ["/usr/bin/chromium", "/usr/bin/chromium-browser", "/usr/bin/google-chrome"].contains { files.isExecutableFile(atPath: $0) }
        let driver = ["/usr/bin/chromedriver", "/usr/local/bin/chromedriver"].contains { files.isExecutableFile(atPath: $0) }
        return browser && driver && (try? HeraldProcess.runTool("/usr/bin/env", ["python3", "-c", "import selenium"])) == 0
    }

    static var shouldRun: Bool { ProcessInfo.processInfo.environment["CI"] == "true" || toolsInstalled }

    @Test(.enabled(if: shouldRun, "needs chromium, chromium-driver and selenium (installed by .ci/run)"))
    func theDashboardDoesTheSeedsStepsInABrowser() async throws {
        #expect(Self.toolsInstalled, "chromium, chromium-driver or selenium is missing")
        guard Self.toolsInstalled else { return }
        let world = try await ProcessWorld.make(.sqlite, name: "Dashboard", record: true)
        defer { Task { await world.close() } }
        let process = try await HeraldProcess.start(environment: world.environment)
        defer { process.kill(SIGTERM) }

        // Two users; Ana signs in on a phone (her session's token registers the device later).
        for (uid, name) in [("ana", "Ana Lima"), ("bob", "Bob Stone")] {
            #expect(try await world.call(process, .PUT, "/v1/users/\(uid)", ["name": name]).status == 200)
        }
        let session = try await world.call(process, .POST, "/v1/users/ana/sessions", [String: Any]())
        let userToken = try #require(session["authToken"] as? String, "\(session.text)")

        // The files a user would upload.
        let folder = TestScratch.path("herald-dashboard")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        func write(_ name: String, _ data: Data) throws -> String {
            let url = folder.appendingPathComponent(name)
            try data.write(to: url)
            return url.path
        }
        let artifacts = URL(
            fileURLWithPath: ProcessInfo.processInfo.environment["HERALD_ARTIFACTS"] ?? Self.root.appendingPathComponent(".artifacts").path
        )
        .appendingPathComponent("dashboard")
        try? FileManager.default.removeItem(at: artifacts)
        var environment = ProcessInfo.processInfo.environment
        environment.merge([
            "HERALD_URL": process.url, "HERALD_API_KEY": world.apiKey, "USER_UID": "ana", "USER_TOKEN": userToken,
            "APNS_TOKEN": Fixtures.apnsToken(),
            "SA_FILE": try write("service-account.json", try JSONSerialization.data(withJSONObject: Fixtures.serviceAccount())),
            "P8_FILE": try write("AuthKey_\(Fixtures.apnsKeyId).p8", Data(world.apnsKeyPEM.utf8)),
            "RSA_FILE": try write("AuthKey_wrong.p8", Data(Fixtures.rsaKeyPEM.utf8)),
            "EXPIRED_P12": try write("expired.p12", Data(base64Encoded: try Fixtures.p12("apns-expired"))!),
            "P12_PASSWORD": Fixtures.p12Password, "SCREENSHOTS": artifacts.path,
        ]) { $1 }
        let script = Self.root.appendingPathComponent("Tests/Browser/dashboard_test.py").path
        let (status, output) = try HeraldProcess.runCapturing("/usr/bin/env", ["python3", script], environment: environment, timeout: 600)
        print(output)
        #expect(status == 0, "the browser test failed (screenshots in \(artifacts.path)):\n\(output.suffix(3_000))")
        let screenshots = (try? FileManager.default.contentsOfDirectory(atPath: artifacts.path).filter { $0.hasSuffix(".png") }) ?? []
        #expect(screenshots.count >= 20, "only \(screenshots.count) screenshots")
        // The stand-in saw the test push the dashboard sent.
        #expect(world.apns.received.contains { $0.path.hasPrefix("/3/device/\(environment["APNS_TOKEN"]!)") })
    }
}
