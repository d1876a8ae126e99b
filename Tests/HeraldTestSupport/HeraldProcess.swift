import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix

/// A real `herald` process, started from the package's build folder: for tests that need
/// several processes, or a process to kill.
public final class HeraldProcess: Sendable {
    public let port: Int
    public let process: Process
    public let log: URL

    public var url: String { "http://127.0.0.1:\(port)" }

    /// The `herald` executable: `HERALD_EXECUTABLE` when set (the full-size suites use a release
    /// build), else the one next to the test bundle (`swift build --build-tests` builds both).
    public static var executable: URL {
        if let path = ProcessInfo.processInfo.environment["HERALD_EXECUTABLE"], !path.isEmpty { return URL(fileURLWithPath: path) }
        let bundle = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        var folder = bundle.deletingLastPathComponent()
        while folder.path != "/" {
            let candidate = folder.appendingPathComponent("herald")
            if FileManager.default.isExecutableFile(atPath: candidate.path), !folder.path.hasSuffix(".xctest") { return candidate }
            folder = folder.deletingLastPathComponent()
        }
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent(".build/debug/herald")
    }

    /// Starts `herald serve` and waits until it answers `/health`.
    public static func start(environment: [String: String], port: Int? = nil) async throws -> HeraldProcess {
        let port = try port ?? freePort()
        let process = Process()
        process.executableURL = executable
        process.arguments = ["serve", "--port", String(port), "--host", "127.0.0.1"]
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let log = TestScratch.path("herald-\(port)", suffix: ".log")
        FileManager.default.createFile(atPath: log.path, contents: nil)
        let handle = try FileHandle(forWritingTo: log)
        process.standardError = handle
        process.standardOutput = handle
        try process.run()
        let started = HeraldProcess(port: port, process: process, log: log)
        let deadline = ContinuousClock.now + .seconds(60)
        while ContinuousClock.now < deadline {
            if !process.isRunning { throw TestFailure("herald exited: \(started.logText.suffix(2000))") }
            if (try? await HTTPTestClient.shared.request(.GET, started.url + "/health"))?.status == 200 { return started }
            try await Task.sleep(for: .milliseconds(100))
        }
        started.kill()
        throw TestFailure("herald did not answer /health within 60 s: \(started.logText.suffix(2000))")
    }

    /// Runs a `herald` command (`apps create`, `migrate`, …) to its end; its standard output.
    public static func run(_ arguments: [String], environment: [String: String]) throws -> String {
        let process = Process()
        process.executableURL = executable
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = FileHandle.nullDevice
        try process.run()
        let output = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw TestFailure("herald \(arguments.joined(separator: " ")) exited \(process.terminationStatus)")
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// Runs any program to its end (killed after `timeout` seconds): its exit status and what
    /// it printed, stdout and stderr together.
    public static func runCapturing(
        _ program: String,
        _ arguments: [String],
        environment: [String: String]? = nil,
        timeout: TimeInterval = 60
    ) throws -> (status: Int32, output: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: program)
        process.arguments = arguments
        if let environment { process.environment = environment }
        let output = TestScratch.path("herald-run", suffix: ".log")
        FileManager.default.createFile(atPath: output.path, contents: nil)
        let handle = try FileHandle(forWritingTo: output)
        defer {
            try? handle.close()
            try? FileManager.default.removeItem(at: output)
        }
        process.standardOutput = handle
        process.standardError = handle
        try process.run()
        let deadline = Date().addingTimeInterval(timeout)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.1) }
        if process.isRunning { process.terminate() }
        process.waitUntilExit()
        return (process.terminationStatus, (try? String(contentsOf: output, encoding: .utf8)) ?? "")
    }

    /// The exit status of a program run quietly (throws if it cannot be started).
    public static func runTool(_ program: String, _ arguments: [String]) throws -> Int32 {
        try runCapturing(program, arguments, timeout: 30).status
    }

    private init(port: Int, process: Process, log: URL) {
        self.port = port
        self.process = process
        self.log = log
    }

    /// User plus system CPU time the process has used so far (Linux `/proc`; 0 elsewhere).
    public var cpuSeconds: Double { Self.cpuSeconds(ofProcess: process.processIdentifier) }

    /// User plus system CPU time of any process, from `/proc/<pid>/stat` (0 where there is none).
    public static func cpuSeconds(ofProcess pid: Int32) -> Double {
        let stat = (try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)) ?? ""
        // Fields after "(comm)": state is field 3; utime and stime are fields 14 and 15, in clock ticks.
        let fields = stat.split(separator: ")").last?.split(separator: " ") ?? []
        guard fields.count > 13, let user = Double(fields[11]), let system = Double(fields[12]) else { return 0 }
        return (user + system) / Double(sysconf(Int32(_SC_CLK_TCK)))
    }

    public var logText: String { (try? String(contentsOf: log, encoding: .utf8)) ?? "" }

    /// Sends a signal (SIGKILL by default: no goodbye) and waits for the process to end — at most
    /// 40 seconds (past the server's own 25-second limit on a graceful stop), then SIGKILL, so that
    /// a stop that hangs cannot hang the suite.
    public func kill(_ signal: Int32 = SIGKILL) {
        guard process.isRunning else { return }
        Foundation.kill(process.processIdentifier, signal)
        let deadline = Date().addingTimeInterval(40)
        while process.isRunning, Date() < deadline { Thread.sleep(forTimeInterval: 0.05) }
        if process.isRunning {
            FileHandle.standardError.write(Data("herald \(process.processIdentifier) did not stop within 40 s of signal \(signal): killed\n".utf8))
            Foundation.kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }
    }

    /// A TCP port nobody listens on now.
    public static func freePort() throws -> Int {
        let channel = try ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton).bind(host: "127.0.0.1", port: 0).wait()
        let port = channel.localAddress!.port!
        try channel.close().wait()
        return port
    }
}

/// JSON over HTTP to a server outside the test process.
public final class HTTPTestClient: Sendable {
    public static let shared = HTTPTestClient()
    private let http = HTTPClient(eventLoopGroupProvider: .singleton)

    public func request(_ method: HTTPMethod, _ url: String, bearer: String? = nil, json: Any? = nil) async throws -> JSONResponse {
        var request = HTTPClientRequest(url: url)
        request.method = method
        if let bearer { request.headers.add(name: "Authorization", value: "Bearer \(bearer)") }
        if let json {
            request.headers.add(name: "Content-Type", value: "application/json")
            request.body = .bytes(ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json)))
        }
        let response = try await http.execute(request, timeout: .seconds(30))
        let body = try await response.body.collect(upTo: 16 << 20)
        return JSONResponse(status: Int(response.status.code), headers: [:], text: String(buffer: body))
    }
}
