/**
 * AWF's deploy example of interactive inputs (interactive-inputs.md): an enum, a pattern and
 * an optional boolean with a default, and one step that echoes what it was given. Shared by
 * the tests of the prompts (`switchyard run`) and of the waits a server opens instead.
 */
export const deployInputsWorkflow = (name: string) => `name: ${name}
inputs:
  - name: environment
    type: string
    required: true
    description: Target environment
    validation:
      enum: [dev, staging, prod]
  - name: version
    type: string
    required: true
    description: Version tag to deploy
    validation:
      pattern: '^v\\d+\\.\\d+\\.\\d+$'
  - name: dry_run
    type: boolean
    required: false
    default: false
    description: Perform dry-run without applying changes
states:
  initial: deploy
  deploy:
    type: step
    command: echo "deploying {{.inputs.version}} to {{.inputs.environment}} dry={{.inputs.dry_run}}"
    on_success: done
  done:
    type: terminal
`;
