// The Run Tool webview's state: what the page shows, and the part of it kept with setState.
import type { FieldProblem } from '../../src/jsonSchema/common/formValues';
import type { FormModel, Json } from '../../src/jsonSchema/common/schemaFields';
import type { ArgumentPreset, HistorySummary } from '../../src/toolRunner/common/runHistory';
import type { ProgressInfo, RunDiff, RunOutcome, TaskInfo, ToolInfo } from '../../src/toolRunner/common/toolRunnerProtocol';

/** How the result is shown: each content item drawn, or the result's JSON exactly as received. */
export type ResultView = 'rendered' | 'raw';

/** What survives the webview being re-created (the panel is not retained when hidden). */
export interface SavedState {
  schemaKey: string;
  values: Json;
  mode: 'form' | 'json';
  rawJson: string;
  /** Rendered or Raw result. */
  resultView?: ResultView;
  /** The history list is expanded. */
  historyOpen?: boolean;
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
  /** An earlier run the user picked in the history, shown instead of the last outcome. */
  shown?: { entry: HistorySummary; outcome: RunOutcome };
  history: HistorySummary[];
  /** History ids ticked for comparison (at most two, oldest tick dropped first). */
  selected: string[];
  presets: ArgumentPreset[];
  diff?: RunDiff;
  /** The preset picked in the presets list. */
  presetChoice?: string;
  /** The preset last deleted, for Undo. */
  deletedPreset?: ArgumentPreset;
}
