import Foundation

/// A view model: a page or a fragment, rendered by its template. Its stored properties are the
/// template's keys (see ``DashboardContext``).
protocol DashboardViewModel {
    static var template: DashboardTemplate { get }
}
