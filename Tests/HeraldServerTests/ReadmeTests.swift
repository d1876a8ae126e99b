import Foundation
import HeraldModels
import HeraldTestSupport
import Testing

/// The README's commands, run as written: every ```` ```sh ```` or ```` ```bash ```` block, in
/// order, in one shell (a block marked `<!-- readme-test: skip … -->` on the line before it is
/// left out: the two set-up lines at the top). The commands run in a fresh folder that holds the
/// files they read (`service-account.json`, `AuthKey_ABC123DEFG.p8`, `apns.p12`, the example
/// configuration file), against local
/// stand-ins for APNs and FCM (the environment points Herald at them, as an operator would with
/// `HERALD_APNS_SANDBOX_URL` and friends), with two shims on `PATH`: `swift run herald …` runs
/// the `herald` already built (no second build racing the first), and `curl` fails on an HTTP
/// error (`--fail-with-body`), so a command answered with a 4xx or 5xx fails the test.
///
/// Needs bash, curl and jq (`.ci/run` installs jq) and the port the README uses, 8080.
@Suite("README")
struct ReadmeTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    struct Block: Equatable {
        var line: Int
        var code: String
    }

    /// The shell blocks of a Markdown text, in order, with the line each starts on.
    static func shellBlocks(of markdown: String) -> [Block] {
        var blocks: [Block] = []
        var open: Block?
        var inOtherBlock = false
        var skipNext = false
        for (index, line) in markdown.components(separatedBy: "\n").enumerated() {
            if var block = open {
                if line.hasPrefix("```") {
                    blocks.append(block)
                    open = nil
                } else {
                    block.code += line + "\n"
                    open = block
                }
            } else if inOtherBlock {
                if line.hasPrefix("```") { inOtherBlock = false }
            } else if line == "```sh" || line == "```bash" {
                if skipNext { inOtherBlock = true } else { open = Block(line: index + 2, code: "") }
                skipNext = false
            } else if line.hasPrefix("```") {
                inOtherBlock = true
                skipNext = false
            } else if line.hasPrefix("<!-- readme-test: skip") {
                skipNext = true
            }
        }
        return blocks
    }

    @Test func shellBlocksAreFoundInOrderAndSkipsAreHonoured() {
        let markdown = """
            <!-- readme-test: skip -->
            ```sh
            skipped
            ```
            ```swift
            let x = 1
            ```
            ```bash
            one
            two
            ```
            text
            ```sh
            three
            ```
            """
        #expect(Self.shellBlocks(of: markdown) == [Block(line: 9, code: "one\ntwo\n"), Block(line: 14, code: "three\n")])
    }

    static var toolsInstalled: Bool {
        ["/usr/bin/curl", "/usr/bin/jq", "/bin/bash"].allSatisfy { FileManager.default.isExecutableFile(atPath: $0) }
    }

    @Test(.enabled(if: toolsInstalled || ProcessInfo.processInfo.environment["CI"] == "true", "needs curl and jq (installed by .ci/run)"))
    func everyCommandInTheREADMERunsAsWritten() async throws {
        #expect(Self.toolsInstalled, "curl or jq is missing")
        let readme = try String(contentsOf: Self.root.appendingPathComponent("README.md"), encoding: .utf8)
        let blocks = Self.shellBlocks(of: readme)
        #expect(blocks.count >= 10, "the README has only \(blocks.count) shell blocks")

        let world = try await ProcessWorld.make(.sqlite, name: "Readme", record: true)
        defer { Task { await world.close() } }
        let folder = TestScratch.path("herald-readme")
        let bin = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: bin, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        func write(_ name: String, _ data: Data, executable: Bool = false) throws {
            let url = folder.appendingPathComponent(name)
            try data.write(to: url)
            if executable { try FileManager.default.setAttributes([.posixPermissions: 0o755], ofItemAtPath: url.path) }
        }
        // The files the README's commands read: the stand-ins trust these credentials.
        try write("service-account.json", try JSONSerialization.data(withJSONObject: Fixtures.serviceAccount()))
        try write("AuthKey_\(Fixtures.apnsKeyId).p8", Data(world.apnsKeyPEM.utf8))
        try write("apns.p12", Data(base64Encoded: try Fixtures.p12("apns-valid"))!)
        // The example configuration file, where a clone has it.
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("deploy"), withIntermediateDirectories: true)
        try write("deploy/herald.example.yaml", Data(contentsOf: Self.root.appendingPathComponent("deploy/herald.example.yaml")))
        try write(
            "bin/swift",
            Data(
                """
                #!/bin/bash
                # `swift run herald …` → the herald this test suite built.
                [ "$1" = run ] && [ "$2" = herald ] || { echo "the README test runs only 'swift run herald': $*" >&2; exit 64; }
                shift 2
                exec "$HERALD_EXECUTABLE" "$@"

                """.utf8
            ),
            executable: true
        )
        try write(
            "bin/curl",
            Data(
                """
                #!/bin/bash
                # A 4xx or 5xx answer fails the command (and the README test).
                exec /usr/bin/curl --fail-with-body --show-error "$@"

                """.utf8
            ),
            executable: true
        )

        var script = """
            set -euo pipefail
            trap 'status=$?; [ $status -eq 0 ] || echo "README command failed (exit $status): $BASH_COMMAND" >&2' ERR
            trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null || true' EXIT

            """
        for block in blocks {
            script += "echo '── README.md line \(block.line)'\n" + block.code
        }
        try write("readme.sh", Data(script.utf8))

        // A fresh user's set-up: the default data folder and a key file made on first start;
        // only the provider hosts point at the stand-ins.
        var environment = ProcessInfo.processInfo.environment.merging(world.environment) { $1 }
        environment["HERALD_DATABASE_URL"] = nil
        environment["HERALD_SECRET_KEY"] = nil
        environment["HERALD_ENGINE_LEASE_SECONDS"] = nil
        environment["HERALD_EXECUTABLE"] = HeraldProcess.executable.path
        environment["PATH"] = bin.path + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        #expect(
            try HeraldProcess.runCapturing("/bin/bash", ["-c", "exec 3<>/dev/tcp/127.0.0.1/8080"]).status != 0,
            "port 8080, which the README uses, is taken"
        )
        let run = try HeraldProcess.runCapturing(
            "/bin/bash",
            ["-c", "cd '\(folder.path)' && bash readme.sh"],
            environment: environment,
            timeout: 300
        )
        #expect(run.status == 0, "the README's commands failed:\n\(run.output.suffix(6_000))")

        // What the commands sent reached the stand-ins: the test pushes and the chat events, to
        // Ana's iPhone (APNs) and tablet (FCM); the campaign's card reached her feed.
        let iPhone = "740f4707bebcf74f9b7c25d48e3358945f6aa01da5ddb387462c7eaf61bb78ad"
        let toPhone = world.apns.received.filter { $0.path == "/3/device/\(iPhone)" }
        let toTablet = world.fcm.messages.map { JSONValue.parsing($0) }
            .filter { $0["token"].string == "fcm-registration-token-from-the-device" }
        #expect(toPhone.count >= 3, "APNs got \(toPhone.count) pushes for Ana's iPhone:\n\(run.output.suffix(3_000))")
        #expect(toTablet.count >= 3, "FCM got \(toTablet.count) messages for Ana's tablet:\n\(run.output.suffix(3_000))")
        #expect(toPhone.contains { String(decoding: $0.body, as: UTF8.self).contains("Hello!") }, "the README's message did not reach the iPhone")
        #expect(run.output.contains("fit_"), "the campaign's card is not in Ana's feed")
        // The Matrix notify reached the same iPhone (its pushkey is the token in base64), as Sygnal shapes it.
        #expect(
            toPhone.contains { String(decoding: $0.body, as: UTF8.self).contains("MSG_FROM_USER_IN_ROOM_WITH_CONTENT") },
            "the README's Matrix notify did not reach the iPhone"
        )
        #expect(run.output.contains(#"{"rejected":["nobody-key"]}"#), "the README's notify did not reject the unbound app id")
        // The backup was restored into a new folder, beside its key file.
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("restored/herald.sqlite").path))
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("restored/secret.key").path))
    }
}
