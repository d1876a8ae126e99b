import Foundation
import HeraldCore
import HeraldModels
import Hummingbird

/// Push settings: enable, multi-device policy, badge, message object, payload format, custom
/// JSON, token cap (and the other switches of `PATCH /v1/push/settings`).
struct DashboardSettingsController: Sendable {
    let dashboard: Dashboard

    func addRoutes(to router: Router<BasicRequestContext>) {
        router.get("/dashboard/settings", use: show)
        router.post("/dashboard/settings", use: update)
    }

    @Sendable func show(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.page(request) { signedIn in
            settingsPage(
                signedIn,
                values: Self.values(signedIn.app.settings),
                errors: [:],
                notice: request.uri.queryParameters.get("saved") != nil ? "Settings saved." : nil
            )
        }
    }

    @Sendable func update(_ request: Request, context: BasicRequestContext) async throws -> Response {
        try await dashboard.form(request) { signedIn, form in
            do {
                _ = try await dashboard.services.apps.updateSettings(appId: signedIn.app.id, try Self.patch(form))
                return DashboardView.redirect("/dashboard/settings?saved=1")
            } catch {
                return settingsPage(
                    signedIn,
                    values: form.values,
                    errors: Dashboard.errors(error, fields: Self.errorFields),
                    status: .unprocessableContent
                )
            }
        }
    }

    /// The form as a settings patch (every field sent; an empty custom JSON removes it).
    static func patch(_ form: DashboardForm) throws -> PushSettingsPatch {
        var patch = PushSettingsPatch()
        patch.enabled = form.checked("enabled")
        patch.multiDevicePolicy = form.text("multiDevicePolicy")
        patch.badge = form.checked("badge")
        patch.includeMessageObject = form.checked("includeMessageObject")
        patch.payloadFormat = form.text("payloadFormat")
        patch.hideMessageText = form.checked("hideMessageText")
        patch.localizationKeys = form.checked("localizationKeys")
        patch.includeConversationUnread = form.checked("includeConversationUnread")
        patch.maxTokensPerUser = try integer(form, "maxTokensPerUser")
        patch.onlineGraceSeconds = try integer(form, "onlineGraceSeconds")
        patch.clearOnRead = form.checked("clearOnRead")
        patch.clearCoalesceSeconds = try integer(form, "clearCoalesceSeconds")
        patch.burstWindowSeconds = try integer(form, "burstWindowSeconds")
        patch.contentMode = form.text("contentMode")
        patch.androidChannels = .init(
            messages: form.text("channelMessages"),
            mentions: form.text("channelMentions"),
            calls: form.text("channelCalls")
        )
        if let text = form.text("customJSON") {
            guard case .object(let object) = try DashboardJSON.parse(text, field: "customJSON") else {
                throw HeraldError.invalidField("customJSON", "must be a JSON object, like {\"team\": \"support\"}")
            }
            patch.customJSON = .some(object)
        } else {
            patch.customJSON = .some(nil)
        }
        return patch
    }

    /// The form's names of fields the API names otherwise.
    static let errorFields = [
        "androidChannels.messages": "channelMessages", "androidChannels.mentions": "channelMentions", "androidChannels.calls": "channelCalls",
    ]

    static func integer(_ form: DashboardForm, _ name: String) throws -> Int? {
        guard let text = form.text(name) else { return nil }
        guard let value = Int(text) else { throw HeraldError.invalidField(name, "must be a whole number") }
        return value
    }

    static func values(_ settings: PushSettings) -> [String: String] {
        var values = [
            "multiDevicePolicy": settings.multiDevicePolicy.rawValue, "payloadFormat": settings.payloadFormat.rawValue,
            "maxTokensPerUser": String(settings.maxTokensPerUser), "onlineGraceSeconds": String(settings.onlineGraceSeconds),
            "customJSON": settings.customJSON.flatMap { try? JSONValue.object($0).jsonText() } ?? "",
            "clearCoalesceSeconds": String(settings.clearCoalesceSeconds), "burstWindowSeconds": String(settings.burstWindowSeconds),
            "contentMode": settings.contentMode.rawValue, "channelMessages": settings.androidChannels.messages,
            "channelMentions": settings.androidChannels.mentions, "channelCalls": settings.androidChannels.calls,
        ]
        for (name, on) in [
            ("enabled", settings.enabled), ("badge", settings.badge), ("includeMessageObject", settings.includeMessageObject),
            ("hideMessageText", settings.hideMessageText), ("localizationKeys", settings.localizationKeys),
            ("includeConversationUnread", settings.includeConversationUnread), ("clearOnRead", settings.clearOnRead),
        ] where on {
            values[name] = "on"
        }
        return values
    }

    static let switches = [
        ("enabled", "Push notifications enabled", "Turn off to stop every push of this app (in-app delivery goes on)."),
        ("badge", "Badge count", "Set the app icon's badge to the user's unread messages."),
        ("includeMessageObject", "Include the message object", "Put the whole message in the push payload (CometChat's `message`)."),
        ("hideMessageText", "Hide message text", "Show \"New message\" instead of the text."),
        ("localizationKeys", "Localisation keys", "Send `loc-key` and `title-loc-key` so the device localises the text."),
        ("includeConversationUnread", "Conversation unread count", "Add the conversation's unread count to each push."),
        (
            "clearOnRead", "Clear on read",
            "When a user reads a conversation on one device, remove its notifications from their other devices."
        ),
    ]

    private func settingsPage(
        _ signedIn: DashboardSignedIn,
        values: [String: String],
        errors: [String: String],
        notice: String? = nil,
        status: HTTPResponse.Status = .ok
    ) -> Response {
        let page = SettingsPage(
            values: values,
            errors: errors,
            switches: Self.switches.map { SettingsPage.Switch(name: $0.0, label: $0.1, help: $0.2, checked: values[$0.0] == "on") },
            policies: DashboardOption.list(
                MultiDevicePolicy.allCases.map(\.rawValue),
                selected: values["multiDevicePolicy"],
                labels: [
                    "all_offline": "Send when all devices are offline", "any_offline": "Send to the devices that are offline",
                ]
            ),
            formats: DashboardOption.list(
                PushSettings.PayloadFormat.allCases.map(\.rawValue),
                selected: values["payloadFormat"],
                labels: [
                    "cometchat": "CometChat", "sendbird": "Sendbird",
                ]
            ),
            contentModes: DashboardOption.list(
                ContentMode.allCases.map(\.rawValue),
                selected: values["contentMode"],
                labels: [
                    "full": "Full: title and text", "idOnly": "Ids only: the app fetches the message",
                    "encrypted": "Encrypted to the device's key",
                ]
            )
        )
        return dashboard.view.page(page, title: "Push settings", section: "/dashboard/settings", signedIn: signedIn, status: status, notice: notice)
    }
}
