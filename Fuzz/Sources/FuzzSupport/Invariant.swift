/// Stops the fuzzer with `message` when `condition` is false, so that libFuzzer saves the input as a finding.
///
/// Used for properties that must hold for every input (a round trip, an agreement between two parsers, a limit),
/// on top of the crashes and memory errors the sanitizers catch. The message never includes the input; libFuzzer
/// saves that next to the finding.
public func require(_ condition: Bool, _ message: @autoclosure () -> String) {
    if !condition {
        fatalError("invariant broken: \(message())")
    }
}
