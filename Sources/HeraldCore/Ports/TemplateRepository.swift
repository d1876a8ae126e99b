import Foundation

public protocol TemplateRepository: Sendable {
    func templates(appId: String) async throws -> [PushTemplate]
    func upsertTemplate(appId: String, _ template: PushTemplate) async throws
    func deleteTemplate(appId: String, eventType: EventKind, receiverType: ReceiverType, locale: String) async throws -> Bool
}
