import Foundation
import Testing

/// What an interoperability script printed (Tests/Python/steps.py: each step's `ok` and `value`, or its `error`),
/// with the checks the tests make of one step.
struct PythonSteps {
    let results: [String: [String: Any]]

    init(_ printed: [String: Any]) { results = printed.compactMapValues { $0 as? [String: Any] } }

    /// The step's value; records an issue when it did not run or failed.
    func value(_ step: String, sourceLocation: SourceLocation = #_sourceLocation) -> Any? {
        guard let result = results[step] else {
            Issue.record("\(step) did not run", sourceLocation: sourceLocation)
            return nil
        }
        #expect(result["ok"] as? Bool == true, "\(step): \(result["error"] ?? "")", sourceLocation: sourceLocation)
        return result["value"]
    }

    /// The step's value as a JSON object (empty when it is none).
    func record(_ step: String, sourceLocation: SourceLocation = #_sourceLocation) -> [String: Any] {
        value(step, sourceLocation: sourceLocation) as? [String: Any] ?? [:]
    }

    /// The error a step that must fail raised (`TypeName: message`); records an issue when it succeeded.
    func refusal(_ step: String, sourceLocation: SourceLocation = #_sourceLocation) -> String {
        #expect(results[step]?["ok"] as? Bool == false, "\(step) should have failed", sourceLocation: sourceLocation)
        return results[step]?["error"] as? String ?? ""
    }
}
