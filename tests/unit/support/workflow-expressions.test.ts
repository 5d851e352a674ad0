/**
 * The workflow runner's expressions (tests/support/workflow-runner.ts), evaluated by GitHub's own
 * evaluator: the `if:` conditions and `${{ }}` substitutions examples/preview-environment/workflow.yml
 * uses, the status functions the runner answers, and a context the test did not give failing loudly.
 */
import { condition, evaluate, substitute } from "../../support/workflow-runner";

const contexts = {
  github: {
    event_name: "pull_request",
    repository: "acme/app",
    event: { action: "opened", number: 42, pull_request: { head: { repo: { full_name: "Acme/App" } } } },
  },
  steps: { stack: { outputs: { exists: "false" } } },
  env: { PREVIEW_DIR: "examples/preview-environment/yaml" },
};

describe("the runner's expressions", () => {
  it("reads the workflow's conditions as Actions does (strings compare case-insensitively)", () => {
    const own =
      "github.event_name == 'pull_request' && github.event.action != 'closed' && " +
      "github.event.pull_request.head.repo.full_name == github.repository";
    expect(condition(own, { contexts })).toBe(true);
    expect(condition("${{ steps.stack.outputs.exists == 'true' }}", { contexts })).toBe(false);
    // A step that has not run has no outputs: null, which is not 'false'.
    expect(condition("steps.recover.outputs.exists != 'false'", { contexts })).toBe(true);
  });

  it("runs nothing after a failure unless a status function says so", () => {
    expect(condition(undefined, { contexts, failed: true })).toBe(false);
    expect(condition("github.event_name == 'pull_request'", { contexts, failed: true })).toBe(false);
    expect(condition("always()", { contexts, failed: true })).toBe(true);
    expect(condition("failure() && github.event.number == 42", { contexts, failed: true })).toBe(true);
  });

  it("substitutes values into text, and fails on a context it was not given", () => {
    expect(substitute("pr-${{ github.event.number }} in ${{ env.PREVIEW_DIR }}", { contexts })).toBe(
      "pr-42 in examples/preview-environment/yaml",
    );
    expect(evaluate("format('pr-{0}', github.event.number)", { contexts })).toBe("pr-42");
    expect(() => evaluate("secrets.NEON_API_KEY", { contexts })).toThrow();
  });
});
