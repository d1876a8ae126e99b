import Foundation
import HTTPTypes
import Hummingbird
import Logging
import Mustache
import Synchronization
import Testing

@testable import HeraldServer

/// The dashboard's templates as files: every file in `Templates/` is compiled in and loads, every
/// template the code renders exists, a page that cannot be rendered is an error page and a log
/// line (never an empty page), and a view model's absent values never reach for an outer key.
@Suite("Dashboard templates")
struct DashboardTemplateTests {
    static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/HeraldServer/Dashboard")

    @Test func everyTemplateFileIsCompiledIn() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Self.folder.appendingPathComponent("Templates").path)
            .filter { $0.hasSuffix(".mustache") }
        let names = Set(files.map { String($0.dropLast(".mustache".count)) })
        let cases = Set(DashboardTemplate.allCases.map(\.rawValue))
        #expect(names == cases, "files without a case: \(names.subtracting(cases).sorted()); without a file: \(cases.subtracting(names).sorted())")
        // What the binary holds is the file as it is now (Package.swift embeds that very file).
        for template in DashboardTemplate.allCases where names.contains(template.rawValue) {
            let text = try String(contentsOf: Self.folder.appendingPathComponent("Templates/\(template.rawValue).mustache"), encoding: .utf8)
            #expect(text == template.source + "\n", "\(template.rawValue).mustache differs from the compiled-in copy")
        }
        for (name, text) in [("dashboard.css", DashboardAssets.css), ("dashboard.js", DashboardAssets.js)] {
            #expect(try String(contentsOf: Self.folder.appendingPathComponent("Assets/\(name)"), encoding: .utf8) == text, "\(name)")
        }
    }

    @Test func everyTemplateLoadsAndEveryPartialItNamesExists() throws {
        let library = try DashboardTemplate.library()
        for template in DashboardTemplate.allCases {
            #expect(library.getTemplate(named: template.rawValue) != nil, "\(template.rawValue)")
            for partial in template.partials {
                #expect(DashboardTemplate(rawValue: partial) != nil, "\(template.rawValue) names the partial \(partial)")
            }
        }
        #expect(DashboardTemplate.user.partials == ["deliveries"])
    }

    /// Log lines kept in memory.
    final class Lines: Sendable {
        let lines = Mutex<[(Logger.Level, String, Logger.Metadata)]>([])
        var all: [(Logger.Level, String, Logger.Metadata)] { lines.withLock { $0 } }
    }

    struct Capture: LogHandler {
        let sink: Lines
        var metadata: Logger.Metadata = [:]
        var logLevel: Logger.Level = .trace
        subscript(metadataKey key: String) -> Logger.Metadata.Value? {
            get { metadata[key] }
            set { metadata[key] = newValue }
        }

        func log(event: LogEvent) {
            sink.lines.withLock { $0.append((event.level, "\(event.message)", event.metadata ?? [:])) }
        }
    }

    /// A view whose library lacks some templates, and the lines it logs.
    static func view(without missing: Set<DashboardTemplate>) throws -> (DashboardView, Lines) {
        var library = MustacheLibrary()
        for template in DashboardTemplate.allCases where !missing.contains(template) {
            try library.register(template.source, named: template.rawValue)
        }
        let lines = Lines()
        return (DashboardView(library: library, logger: Logger(label: "test") { _ in Capture(sink: lines) }), lines)
    }

    static let login = LoginPage(csrf: "token", error: nil, next: "")

    @Test func aPageWhoseTemplateIsMissingIsAnErrorPageAndALogLine() throws {
        let (view, lines) = try Self.view(without: [.login])
        #expect(view.page(Self.login, title: "Sign in", section: "", signedIn: nil).status == .internalServerError)
        let page = view.renderPage(Self.login, title: "Sign in", section: "", signedIn: nil)
        #expect(page.status == .internalServerError)
        #expect(page.html.hasPrefix("<!doctype html>") && page.html.contains("<h1>Error</h1>") && page.html.contains("render_failed"), "\(page.html)")
        #expect(page.html.contains("This page could not be shown"))
        let logged = lines.all
        #expect(logged.count == 2 && logged.allSatisfy { $0.0 == .error && $0.2["template"] == "login" }, "\(logged)")

        // A fragment whose template is missing: the error alone, as a fragment.
        let preview = CardPreview(problems: [], hasProblems: false)
        #expect(view.renderFragment(preview).status == .ok)
        let (fragmentView, _) = try Self.view(without: [.cardPreview])
        #expect(fragmentView.fragment(preview).status == .internalServerError)
        let fragment = fragmentView.renderFragment(preview)
        #expect(
            fragment.status == .internalServerError && fragment.html.contains("render_failed") && !fragment.html.contains("<html"),
            "\(fragment.html)"
        )
    }

    @Test func withoutTheLayoutOrTheErrorTemplateAPageIsStaticHTML() throws {
        for missing: Set<DashboardTemplate> in [[.layout], [.login, .error]] {
            let (view, lines) = try Self.view(without: missing)
            let page = view.renderPage(Self.login, title: "Sign in", section: "", signedIn: nil)
            #expect(page.status == .internalServerError && page.html == DashboardView.staticErrorPage, "\(missing)")
            #expect(lines.all.contains { $0.0 == .error }, "\(missing)")
        }
    }

    @Test func aViewModelsAbsentValuesNeverReachForAnOuterKey() throws {
        struct Row {
            let broken: String?
            let note: String
        }
        struct Page {
            let broken: String?
            let note: String
            let rows: [Row]
        }
        let page = Page(broken: "outer", note: "outer", rows: [Row(broken: nil, note: "")])
        let template = try MustacheTemplate(string: "{{#rows}}{{#broken}}Set aside: {{broken}}{{/broken}}[{{note}}]{{/rows}}")
        // Read by reflection, an absent optional is a missing key, and the row shows its page's.
        #expect(template.render(page) == "Set aside: outer[]")
        let context = try #require(DashboardContext.normalized(value: page) as? [String: Any])
        #expect(template.render(context) == "[]")
        let row = try #require((context["rows"] as? [Any])?.first as? [String: Any])
        #expect(row["broken"] is NSNull && row["note"] is NSNull && row.count == 2)
    }
}
