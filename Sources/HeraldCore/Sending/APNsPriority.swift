import Foundation

/// `apns-priority`: send now, or when the device's power allows.
public enum APNsPriority: Int, Sendable, Hashable {
    /// 10: delivered at once (alerts, VoIP).
    case immediately = 10
    /// 5: delivered when it suits the device's battery (background pushes must use it).
    case consideringDevicePower = 5
}
