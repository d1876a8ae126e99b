import HeraldCore
import Foundation
import Logging
import NIOCore
import NIOPosix
import PostgresNIO
import PostgresKit
import SQLiteKit
import SQLKit
import Synchronization

enum Dialect: Sendable {
    case sqlite
    case postgres
}
