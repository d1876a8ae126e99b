import Foundation
import HeraldCards
import HeraldCore

/// Charts drawn by the server as inline SVG: no script, no external library. Each has a text
/// title for screen readers and a `<title>` per mark for a hover tooltip; colours come from the
/// stylesheet's classes (`c-delivered`, `c-failed`, …).
enum DashboardCharts {
    struct Series {
        let name: String
        let cssClass: String
        let values: [Int]
    }

    /// Stacked columns over time: one column per bucket, one segment per series.
    static func stackedColumns(title: String, labels: [String], series: [Series], width: Int = 720, height: Int = 220) -> String {
        let count = max(1, labels.count)
        let totals = (0..<count).map { index in series.reduce(0) { $0 + ($1.values.indices.contains(index) ? $1.values[index] : 0) } }
        let top = niceCeiling(totals.max() ?? 0)
        let left = 44
        let bottom = 28
        let right = 8
        let topPad = 8
        let plotWidth = width - left - right
        let plotHeight = height - bottom - topPad
        let slot = Double(plotWidth) / Double(count)
        let barWidth = max(1, slot * 0.7)
        var svg = """
            <svg class="chart" viewBox="0 0 \(width) \(height)" role="img" aria-label="\(escape(title))" xmlns="http://www.w3.org/2000/svg">
            <title>\(escape(title))</title>
            """
        // Grid lines and the value axis.
        for step in 0...4 {
            let value = top * step / 4
            let y = Double(topPad) + Double(plotHeight) * (1 - Double(step) / 4)
            svg += "<line class=\"grid\" x1=\"\(left)\" x2=\"\(width - right)\" y1=\"\(fmt(y))\" y2=\"\(fmt(y))\"/>"
            svg += "<text class=\"axis\" x=\"\(left - 6)\" y=\"\(fmt(y + 4))\" text-anchor=\"end\">\(value)</text>"
        }
        for index in 0..<count {
            let x = Double(left) + slot * Double(index) + (slot - barWidth) / 2
            var y = Double(topPad + plotHeight)
            for item in series {
                let value = item.values.indices.contains(index) ? item.values[index] : 0
                guard value > 0, top > 0 else { continue }
                let h = Double(plotHeight) * Double(value) / Double(top)
                y -= h
                let label = labels.indices.contains(index) ? labels[index] : ""
                svg += "<rect class=\"\(item.cssClass)\" x=\"\(fmt(x))\" y=\"\(fmt(y))\" width=\"\(fmt(barWidth))\" height=\"\(fmt(h))\">"
                svg += "<title>\(escape(label)): \(value) \(escape(item.name))</title></rect>"
            }
            // A label under every few columns.
            let every = max(1, count / 8)
            if index % every == 0, labels.indices.contains(index) {
                svg +=
                    "<text class=\"axis\" x=\"\(fmt(x + barWidth / 2))\" y=\"\(height - 10)\" text-anchor=\"middle\">\(escape(labels[index]))</text>"
            }
        }
        svg += "</svg>"
        return svg + legend(series.map { ($0.name, $0.cssClass, $0.values.reduce(0, +)) })
    }

    /// Horizontal bars, one per item, longest first as given.
    static func bars(title: String, items: [(label: String, value: Int, cssClass: String)], width: Int = 520) -> String {
        guard !items.isEmpty else { return "<p class=\"empty\">Nothing yet.</p>" }
        let rowHeight = 26
        let labelWidth = 200
        let height = rowHeight * items.count + 4
        let top = max(1, items.map(\.value).max() ?? 1)
        var svg = """
            <svg class="chart" viewBox="0 0 \(width) \(height)" role="img" aria-label="\(escape(title))" xmlns="http://www.w3.org/2000/svg">
            <title>\(escape(title))</title>
            """
        for (index, item) in items.enumerated() {
            let y = index * rowHeight + 2
            let w = Double(width - labelWidth - 60) * Double(item.value) / Double(top)
            svg += "<text class=\"label\" x=\"0\" y=\"\(y + 17)\">\(escape(String(item.label.prefix(30))))</text>"
            svg += "<rect class=\"\(item.cssClass)\" x=\"\(labelWidth)\" y=\"\(y + 4)\" width=\"\(fmt(max(1, w)))\" height=\"\(rowHeight - 8)\">"
            svg += "<title>\(escape(item.label)): \(item.value)</title></rect>"
            svg += "<text class=\"value\" x=\"\(fmt(Double(labelWidth) + max(1, w) + 6))\" y=\"\(y + 17)\">\(item.value)</text>"
        }
        return svg + "</svg>"
    }

    /// A funnel: each step's bar as wide as its share of the first step's value.
    static func funnel(title: String, steps: [(label: String, value: Int)], width: Int = 560) -> String {
        let rowHeight = 34
        let height = rowHeight * steps.count + 4
        let first = max(1, steps.first?.value ?? 1)
        var svg = """
            <svg class="chart funnel" viewBox="0 0 \(width) \(height)" role="img" aria-label="\(escape(title))" xmlns="http://www.w3.org/2000/svg">
            <title>\(escape(title))</title>
            """
        for (index, step) in steps.enumerated() {
            let share = min(1, Double(step.value) / Double(first))
            let w = max(2, Double(width) * share)
            let x = (Double(width) - w) / 2
            let y = index * rowHeight + 2
            let percent = Int((share * 100).rounded())
            svg += "<rect class=\"c-step\(index % 5)\" x=\"\(fmt(x))\" y=\"\(y)\" width=\"\(fmt(w))\" height=\"\(rowHeight - 6)\" rx=\"4\">"
            svg += "<title>\(escape(step.label)): \(step.value) (\(percent) %)</title></rect>"
            svg +=
                "<text class=\"funnel-label\" x=\"\(width / 2)\" y=\"\(y + 20)\" text-anchor=\"middle\">\(escape(step.label)): \(step.value) (\(percent) %)</text>"
        }
        return svg + "</svg>"
    }

    static func legend(_ items: [(name: String, cssClass: String, total: Int)]) -> String {
        "<ul class=\"legend\">"
            + items.map { "<li><span class=\"swatch \($0.cssClass)\" aria-hidden=\"true\"></span>\(escape($0.name)): \($0.total)</li>" }.joined()
            + "</ul>"
    }

    /// 0, then 1, 2, 5 × 10ⁿ at or above the value (at least 4, so the grid's quarters are whole).
    static func niceCeiling(_ value: Int) -> Int {
        guard value > 4 else { return 4 }
        var magnitude = 1
        while magnitude * 10 <= value { magnitude *= 10 }
        for factor in [1, 2, 4, 5, 8, 10] where factor * magnitude >= value { return factor * magnitude }
        return 10 * magnitude
    }

    static func escape(_ text: String) -> String { HTMLText.escape(text) }

    private static func fmt(_ value: Double) -> String { String(format: "%.1f", value) }
}
