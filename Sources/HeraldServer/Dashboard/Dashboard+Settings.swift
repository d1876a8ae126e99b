import Foundation
import HeraldCore
import HeraldModels
import Hummingbird

/// Push settings: enable, multi-device policy, badge, message object, payload format, custom
/// JSON, token cap (and the other switches of `PATCH /v1/push/settings`).
extension Dashboard {
    func registerSettings(on router: Router<BasicRequestContext>) {
        router.get("/dashboard/settings") { request, _ in
            try await page(request) { signedIn in
                settingsPage(signedIn, values: Self.settingsValues(signedIn.app.settings), errors: [:],
                             notice: request.uri.queryParameters.get("saved") != nil ? "Settings saved." : nil)
            }
        }
        router.post("/dashboard/settings") { request, _ in
            try await form(request) { signedIn, form in
                do {
                    var patch = PushSettingsPatch()
                    patch.enabled = form.checked("enabled")
                    patch.multiDevicePolicy = form.text("multiDevicePolicy")
                    patch.badge = form.checked("badge")
                    patch.includeMessageObject = form.checked("includeMessageObject")
                    patch.payloadFormat = form.text("payloadFormat")
                    patch.hideMessageText = form.checked("hideMessageText")
                    patch.localizationKeys = form.checked("localizationKeys")
                    patch.includeConversationUnread = form.checked("includeConversationUnread")
                    patch.maxTokensPerUser = try Self.integer(form, "maxTokensPerUser")
                    patch.onlineGraceSeconds = try Self.integer(form, "onlineGraceSeconds")
                    if let text = form.text("customJSON") {
                        guard case .object(let object) = try DashboardJSON.parse(text, field: "customJSON") else {
                            throw HeraldError.invalidField("customJSON", "must be a JSON object, like {\"team\": \"support\"}")
                        }
                        patch.customJSON = .some(object)
                    } else {
                        patch.customJSON = .some(nil)
                    }
                    _ = try await services.apps.updateSettings(appId: signedIn.app.id, patch)
                    return DashboardView.redirect("/dashboard/settings?saved=1")
                } catch {
                    return settingsPage(signedIn, values: form.values, errors: Self.errors(error), status: .unprocessableContent)
                }
            }
        }
    }

    static func integer(_ form: DashboardForm, _ name: String) throws -> Int? {
        guard let text = form.text(name) else { return nil }
        guard let value = Int(text) else { throw HeraldError.invalidField(name, "must be a whole number") }
        return value
    }

    static func settingsValues(_ settings: PushSettings) -> [String: String] {
        var values = [
            "multiDevicePolicy": settings.multiDevicePolicy.rawValue, "payloadFormat": settings.payloadFormat.rawValue,
            "maxTokensPerUser": String(settings.maxTokensPerUser), "onlineGraceSeconds": String(settings.onlineGraceSeconds),
            "customJSON": settings.customJSON.flatMap { try? JSONValue.object($0).jsonText() } ?? "",
        ]
        for (name, on) in [("enabled", settings.enabled), ("badge", settings.badge), ("includeMessageObject", settings.includeMessageObject),
                           ("hideMessageText", settings.hideMessageText), ("localizationKeys", settings.localizationKeys),
                           ("includeConversationUnread", settings.includeConversationUnread)] where on {
            values[name] = "on"
        }
        return values
    }

    func settingsPage(_ signedIn: DashboardSignedIn, values: [String: String], errors: [String: String], notice: String? = nil,
                      status: HTTPResponse.Status = .ok) -> Response {
        let switches = [
            ("enabled", "Push notifications enabled", "Turn off to stop every push of this app (in-app delivery goes on)."),
            ("badge", "Badge count", "Set the app icon's badge to the user's unread messages."),
            ("includeMessageObject", "Include the message object", "Put the whole message in the push payload (CometChat's `message`)."),
            ("hideMessageText", "Hide message text", "Show \"New message\" instead of the text."),
            ("localizationKeys", "Localisation keys", "Send `loc-key` and `title-loc-key` so the device localises the text."),
            ("includeConversationUnread", "Conversation unread count", "Add the conversation's unread count to each push."),
        ].map { name, label, help -> [String: Any] in
            ["name": name, "label": label, "help": help, "checked": values[name] == "on"]
        }
        return view.page("settings", title: "Push settings", section: "/dashboard/settings", context: [
            "values": values, "errors": errors, "switches": switches,
            "policies": Self.options(MultiDevicePolicy.allCases.map(\.rawValue), selected: values["multiDevicePolicy"], labels: [
                "all_offline": "Send when all devices are offline", "any_offline": "Send to the devices that are offline",
            ]),
            "formats": Self.options(PushSettings.PayloadFormat.allCases.map(\.rawValue), selected: values["payloadFormat"], labels: [
                "cometchat": "CometChat", "sendbird": "Sendbird",
            ]),
        ], signedIn: signedIn, status: status, notice: notice)
    }

    static func options(_ values: [String], selected: String?, labels: [String: String] = [:]) -> [[String: Any]] {
        values.map { ["value": $0, "label": labels[$0] ?? $0, "selected": $0 == selected] }
    }
}

/// JSON typed into a form, with syntax errors told by line and column.
enum DashboardJSON {
    static func parse(_ text: String, field: String) throws -> JSONValue {
        do {
            return try JSONValue.parse(text)
        } catch let error as JSONValue.SyntaxError {
            let prefix = Array(text.utf8.prefix(error.offset))
            let line = prefix.filter { $0 == 10 }.count + 1
            let column = prefix.count - (prefix.lastIndex(of: 10).map { $0 + 1 } ?? 0) + 1
            throw HeraldError.invalidField(field, "is not valid JSON: \(error.reason) (line \(line), column \(column))")
        }
    }

    /// Indented JSON for an editor.
    static func pretty(_ value: JSONValue) -> String {
        let bytes = value.jsonBytes(sortedKeys: false)
        guard
              let object = try? JSONSerialization.jsonObject(with: Data(bytes), options: [.fragmentsAllowed]),
              let data = try? JSONSerialization.data(withJSONObject: object, options: [.prettyPrinted, .withoutEscapingSlashes, .fragmentsAllowed]) else {
            return (try? value.jsonText()) ?? ""
        }
        return String(decoding: data, as: UTF8.self)
    }
}
