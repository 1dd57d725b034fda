import Foundation

/// A stacked bar chart of counts per day, drawn as inline SVG on the server: no script, no outside asset. Each bar is
/// one day, each coloured part one series; the chart is an image with a text description, and the same numbers follow
/// in a table for screen readers and for copying.
public struct BarChart: Sendable, Equatable {
    /// One kind of thing counted (a provider, a refusal's kind), with its colour.
    public struct Series: Sendable, Equatable {
        public var label: String
        /// A CSS colour.
        public var colour: String
        /// Its count on each of the chart's days, in the days' order.
        public var counts: [Int]

        public init(label: String, colour: String, counts: [Int]) {
            self.label = label
            self.colour = colour
            self.counts = counts
        }
    }

    /// The element id (the SVG's, with `-table` for the table's).
    public var id: String
    public var title: String
    /// The days shown, oldest first: whole days since 1970-01-01 UTC.
    public var days: [Int64]
    public var series: [Series]

    public init(id: String, title: String, days: [Int64], series: [Series]) {
        self.id = id
        self.title = title
        self.days = days
        self.series = series
    }

    /// Colours for series in order, each at least 3:1 against white (WCAG's contrast for graphics).
    public static let palette = ["#0b57d0", "#b3261e", "#146c2e", "#8f4a00", "#6f3bb2", "#00696e", "#5c5f62"]

    /// The day's total over every series.
    func total(_ index: Int) -> Int { series.reduce(0) { $0 + $1.counts[index] } }

    /// The top of the scale: the largest day's total rounded up to 1, 2 or 5 times a power of ten (at least 1).
    public var scaleTop: Int {
        let largest = max(1, days.indices.map(total).max() ?? 0)
        var step = 1
        while true {
            for factor in [1, 2, 5] where step * factor >= largest { return step * factor }
            step *= 10
        }
    }

    /// `12-04` for a day.
    static func label(day: Int64) -> String {
        let date = Date(timeIntervalSince1970: Double(day) * 86_400)
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.month, .day], from: date)
        return String(format: "%02d-%02d", parts.month ?? 1, parts.day ?? 1)
    }

    /// The chart, its legend and its table.
    public func html() -> String {
        let width = 640, height = 220, left = 44, bottom = 24, top = 10
        let plotHeight = height - bottom - top
        let slot = Double(width - left) / Double(max(1, days.count))
        let barWidth = max(2, slot * 0.7)
        let scale = scaleTop
        func y(_ value: Int) -> Double { Double(top) + Double(plotHeight) * (1 - Double(value) / Double(scale)) }
        func number(_ value: Double) -> String { String(format: "%.1f", value) }

        var parts: [String] = []
        for tick in scale >= 2 ? [0, scale / 2, scale] : [0, scale] {
            let line = number(y(tick))
            parts.append("<line x1=\"\(left)\" x2=\"\(width)\" y1=\"\(line)\" y2=\"\(line)\" class=\"grid\"/>")
            parts.append("<text x=\"\(left - 6)\" y=\"\(line)\" class=\"tick\" text-anchor=\"end\" dominant-baseline=\"middle\">\(tick)</text>")
        }
        for (index, day) in days.enumerated() {
            let x = Double(left) + slot * Double(index) + (slot - barWidth) / 2
            var stacked = 0
            for entry in series where entry.counts[index] > 0 {
                let from = y(stacked), to = y(stacked + entry.counts[index])
                stacked += entry.counts[index]
                parts.append(
                    "<rect x=\"\(number(x))\" y=\"\(number(to))\" width=\"\(number(barWidth))\" height=\"\(number(from - to))\" fill=\"\(entry.colour)\"><title>\(Self.label(day: day)): \(ConsoleHTML.escape(entry.label)) \(entry.counts[index])</title></rect>"
                )
            }
            // About seven labels, counted back from the last day so that today always has one.
            if (days.count - 1 - index) % max(1, days.count / 7) == 0 {
                parts.append(
                    "<text x=\"\(number(x + barWidth / 2))\" y=\"\(height - 6)\" class=\"tick\" text-anchor=\"middle\">\(Self.label(day: day))</text>")
            }
        }
        let totals = series.map { "\($0.label) \($0.counts.reduce(0, +))" }.joined(separator: ", ")
        let description = "\(title), \(days.count) days: " + (series.isEmpty ? "none" : totals)
        let legend = series.map {
            "<li><svg class=\"swatch\" viewBox=\"0 0 10 10\" aria-hidden=\"true\"><rect width=\"10\" height=\"10\" fill=\"\($0.colour)\"/></svg>\(ConsoleHTML.escape($0.label))</li>"
        }.joined()
        let header = days.map { "<th scope=\"col\">\(Self.label(day: $0))</th>" }.joined()
        let rows = series.map { entry in
            "<tr><th scope=\"row\">\(ConsoleHTML.escape(entry.label))</th>" + entry.counts.map { "<td>\($0)</td>" }.joined() + "</tr>"
        }.joined()
        return """
            <figure class="chart"><figcaption id="\(id)-title">\(ConsoleHTML.escape(title))</figcaption>
            <svg id="\(id)" viewBox="0 0 \(width) \(height)" role="img" aria-labelledby="\(id)-title \(id)-desc" data-scale="\(scale)">
            <desc id="\(id)-desc">\(ConsoleHTML.escape(description))</desc>\(parts.joined())</svg>
            <ul class="legend">\(series.isEmpty ? "<li class=\"muted\">Nothing in these days.</li>" : legend)</ul>
            <details><summary>The numbers</summary><div class="table"><table id="\(id)-table"><thead><tr><th scope="col">Day (UTC)</th>\(header)</tr></thead>
            <tbody>\(rows)</tbody></table></div></details></figure>
            """
    }
}
