// The Run Tool webview's state: what the page shows, and the part of it kept with setState.
import type { FieldProblem } from '../../src/toolRunner/common/formValues';
import type { FormModel, Json } from '../../src/toolRunner/common/schemaFields';
import type { ProgressInfo, RunOutcome, TaskInfo, ToolInfo } from '../../src/toolRunner/common/toolRunnerProtocol';

/** What survives the webview being re-created (the panel is not retained when hidden). */
export interface SavedState {
  schemaKey: string;
  values: Json;
  mode: 'form' | 'json';
  rawJson: string;
}

export interface ViewState extends SavedState {
  tool: ToolInfo;
  form: FormModel;
  remembered: boolean;
  issues: FieldProblem[];
  /** A status line under the buttons (declined, validation notes). */
  status?: { text: string; kind: 'info' | 'error' };
  pending?: string;
  running?: { requestId: string; progress?: ProgressInfo; awaitingUser?: boolean; task?: TaskInfo };
  last?: { requestId: string; outcome: RunOutcome };
}
