/// CometChat's custom-provider request: one HTTPS POST per recipient.
/// `{"trigger":"push-notification-payload-generated","data":{"to":{"uid"},"notificationDetails":{…}},"appId","region","webhook":"custom"}`
public struct WebhookEnvelope: Codable, Sendable, Equatable {
    public struct Recipient: Codable, Sendable, Equatable {
        public var uid: String
        public init(uid: String) { self.uid = uid }
    }

    public struct Payload: Codable, Sendable, Equatable {
        public var to: Recipient
        /// title, body, sender…, receiver…, tag, conversationId, type, sentAt, message, custom.
        public var notificationDetails: JSONObject

        public init(to: Recipient, notificationDetails: JSONObject) {
            self.to = to
            self.notificationDetails = notificationDetails
        }
    }

    public var trigger: String
    public var data: Payload
    public var appId: String
    public var region: String
    public var webhook: String

    /// CometChat's trigger for a notification.
    public static let notificationTrigger = "push-notification-payload-generated"
    /// Herald's trigger for a clear: the user read the conversation elsewhere.
    public static let clearTrigger = "notification-cleared"
    /// Herald's trigger for a retract: the message was deleted.
    public static let retractTrigger = "notification-retracted"

    public init(uid: String, notificationDetails: JSONObject, appId: String, region: String, trigger: String = notificationTrigger) {
        self.trigger = trigger
        self.data = Payload(to: Recipient(uid: uid), notificationDetails: notificationDetails)
        self.appId = appId
        self.region = region
        self.webhook = "custom"
    }
}
