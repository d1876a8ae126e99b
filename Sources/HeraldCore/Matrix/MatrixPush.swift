import Foundation
import HeraldModels

/// What Herald stores for one device of a notify (an event of kind `matrix`): the notification
/// with that device alone, the binding it was sent through (so a retry builds the same push
/// after the binding changed) and the platform its pushkey is for.
public struct MatrixPush: Codable, Sendable, Equatable {
    public var notification: MatrixNotification
    public var binding: MatrixAppBinding
    public var platform: PushPlatform

    public init(notification: MatrixNotification, device: MatrixDevice, binding: MatrixAppBinding, platform: PushPlatform) {
        var one = notification
        one.devices = [device]
        self.notification = one
        self.binding = binding
        self.platform = platform
    }

    public var device: MatrixDevice { notification.devices[0] }

    /// Who the delivery log names: the pusher's app id (a notify names no user).
    public var uid: String { "matrix:" + device.appId }

    /// The delivery's target: the pushkey as the homeserver knows it (rejections name it).
    public var pushkey: String { device.pushkey }
}
