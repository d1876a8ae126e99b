import Foundation
import Mustache

/// The dashboard's Mustache templates: one file each in `Templates/`, named after the case.
///
/// The files are compiled into the binary (`PackageResources`, one `.embedInCode` entry each in
/// Package.swift): the release is one file with no resource bundle beside it. A file left out of
/// Package.swift does not compile here; a file in the folder without a case fails the tests.
/// `{{x}}` escapes; `{{{x}}}` is used only for HTML the server built itself (charts, cards).
enum DashboardTemplate: String, CaseIterable, Sendable {
    case layout, login, error, overview, settings
    case providers, provider
    case templates, template
    case templatePreview = "template-preview"
    case users, user, events, event, deliveries
    case feed
    case cardTemplate = "card-template"
    case cardPreview = "card-preview"
    case campaignNew = "campaign-new"
    case campaign

    /// The file's text, without the final newline an editor adds (so the page is the same byte
    /// for byte whether a template is a page of its own or a partial inside another).
    var source: String {
        let text = String(decoding: bytes, as: UTF8.self)
        return text.hasSuffix("\n") ? String(text.dropLast()) : text
    }

    private var bytes: [UInt8] {
        switch self {
        case .layout: PackageResources.layout_mustache
        case .login: PackageResources.login_mustache
        case .error: PackageResources.error_mustache
        case .overview: PackageResources.overview_mustache
        case .settings: PackageResources.settings_mustache
        case .providers: PackageResources.providers_mustache
        case .provider: PackageResources.provider_mustache
        case .templates: PackageResources.templates_mustache
        case .template: PackageResources.template_mustache
        case .templatePreview: PackageResources.template_preview_mustache
        case .users: PackageResources.users_mustache
        case .user: PackageResources.user_mustache
        case .events: PackageResources.events_mustache
        case .event: PackageResources.event_mustache
        case .deliveries: PackageResources.deliveries_mustache
        case .feed: PackageResources.feed_mustache
        case .cardTemplate: PackageResources.card_template_mustache
        case .cardPreview: PackageResources.card_preview_mustache
        case .campaignNew: PackageResources.campaign_new_mustache
        case .campaign: PackageResources.campaign_mustache
        }
    }

    /// The partials a template names (`{{> name}}`).
    var partials: [String] {
        source.matches(of: /\{\{>\s*([^\s}]+)\s*\}\}/).map { String($0.1) }
    }

    /// A template that does not parse, or names a partial that is not one of the templates.
    struct LoadError: Error, CustomStringConvertible {
        let template: String
        let reason: String
        var description: String { "dashboard template \(template): \(reason)" }
    }

    /// Every template, parsed. Mustache renders a missing partial as nothing, so a partial
    /// that names no template is refused here rather than leaving a hole in a page.
    static func library() throws -> MustacheLibrary {
        var library = MustacheLibrary()
        for template in allCases {
            do {
                try library.register(template.source, named: template.rawValue)
            } catch {
                throw LoadError(template: template.rawValue, reason: "\(error)")
            }
            for partial in template.partials where Self(rawValue: partial) == nil {
                throw LoadError(template: template.rawValue, reason: "names the partial \(partial), which is not a template")
            }
        }
        return library
    }
}
