/**
 * The annotation panel (spec 001 §2 "Annotation tools panel"): the tools, the batch switches,
 * the default element type, undo and redo. It replaces the details panel while annotation mode
 * is on: beside the image on wide screens, a compact bar above it on narrower ones (a portrait
 * tablet), so the tools and the image are on screen together. Touch screens also get the
 * switch that lets one finger draw.
 */
import { Field, Label, Switch } from '@headlessui/react';
import type { ElementType } from '@/api/types';
import { ui } from '@/components/styles';
import { setFingerDrawing, useFingerDrawing } from './fingerDrawing';
import { useHistory } from './history';
import { SHORTCUT_OF, TOOL_LABELS } from './shortcuts';
import type { BatchSwitch, Tool } from './state';
import { TOOLS, useAnnotation } from './state';

export interface AnnotationPanelProps {
  types: readonly ElementType[];
  /** Why a tool cannot be used (rights), by tool; absent when it can. */
  blockedTools: Partial<Record<Tool, string>>;
  onTool: (tool: Tool) => void;
  onBatch: (name: BatchSwitch, on: boolean) => void;
  onDefaultType: (type: string | null) => void;
  onCancelDrawing: () => void;
  onUndo: () => void;
  onRedo: () => void;
}

const BATCH_OF: Partial<Record<Tool, { name: BatchSwitch; label: string }>> = {
  rectangle: { name: 'batchCreation', label: 'Batch creation' },
  polygon: { name: 'batchCreation', label: 'Batch creation' },
  'type-edit': { name: 'batchTypeEdition', label: 'Batch type edition' },
  deletion: { name: 'batchDeletion', label: 'Batch deletion' },
};

const HELP: Record<Tool, string> = {
  select: 'Click a zone to select it, then drag a point or the whole zone; releasing saves.',
  'type-edit': 'Click a zone to change its type.',
  deletion: 'Click a zone to delete it.',
  rectangle: 'Drag on the image; releasing creates the zone.',
  polygon:
    'Click to add points; double-click or click the first point to close the zone. Esc cancels.',
  median: 'Click an edge of the selected zone to insert a point there.',
};

export function AnnotationPanel({
  types,
  blockedTools,
  onTool,
  onBatch,
  onDefaultType,
  onCancelDrawing,
  onUndo,
  onRedo,
}: AnnotationPanelProps) {
  const state = useAnnotation();
  const history = useHistory();
  const fingerDraws = useFingerDrawing();
  const batch = BATCH_OF[state.tool];

  return (
    <section
      aria-label="Annotation tools"
      className={`${ui.card} flex flex-wrap items-center gap-x-4 gap-y-2 text-sm max-xl:p-2 xl:flex-col xl:flex-nowrap xl:items-stretch xl:gap-4`}
    >
      <h2 className="text-base font-semibold text-slate-900 max-xl:sr-only">Annotation</h2>
      <div
        role="toolbar"
        aria-label="Tools"
        className="flex flex-wrap gap-1 max-xl:basis-full xl:grid xl:grid-cols-2"
      >
        {TOOLS.map((tool) => {
          const blocked = blockedTools[tool];
          return (
            <button
              key={tool}
              type="button"
              aria-pressed={state.tool === tool}
              aria-disabled={!!blocked}
              aria-keyshortcuts={SHORTCUT_OF[tool]}
              title={blocked ?? `${TOOL_LABELS[tool]} (${SHORTCUT_OF[tool]})`}
              className={`${state.tool === tool ? ui.primaryButton : ui.secondaryButton} justify-start pointer-coarse:min-h-11`}
              onClick={() => !blocked && onTool(tool)}
            >
              {TOOL_LABELS[tool]}
              <kbd aria-hidden="true" className="ml-auto text-xs opacity-70">
                {SHORTCUT_OF[tool]}
              </kbd>
            </button>
          );
        })}
      </div>
      <p className="text-slate-600 max-xl:basis-full max-xl:text-xs">{HELP[state.tool]}</p>
      {state.tool === 'polygon' && state.drawing && (
        <button type="button" className={ui.secondaryButton} onClick={onCancelDrawing}>
          Cancel
        </button>
      )}
      {batch && (
        <PanelSwitch
          label={batch.label}
          checked={state[batch.name]}
          onChange={(on) => onBatch(batch.name, on)}
        />
      )}
      <label className={`${ui.label} max-xl:flex max-xl:items-center max-xl:gap-2`}>
        Default element type
        <select
          className={`${ui.input} max-xl:mt-0 max-xl:w-auto`}
          value={state.defaultType ?? ''}
          onChange={(event) => onDefaultType(event.target.value || null)}
        >
          <option value="">None</option>
          {types.map((type) => (
            <option key={type.slug} value={type.slug}>
              {type.display_name}
            </option>
          ))}
        </select>
      </label>
      <div className="flex gap-2">
        <button
          type="button"
          className={ui.secondaryButton}
          disabled={!history.undoLabel || history.busy}
          title={history.undoLabel ? `Undo ${history.undoLabel} (Ctrl+Z)` : 'Nothing to undo'}
          onClick={onUndo}
        >
          Undo
        </button>
        <button
          type="button"
          className={ui.secondaryButton}
          disabled={!history.redoLabel || history.busy}
          title={history.redoLabel ? `Redo ${history.redoLabel} (Ctrl+Y)` : 'Nothing to redo'}
          onClick={onRedo}
        >
          Redo
        </button>
      </div>
      {/* Only where there is a touch screen: with a mouse alone it would change nothing. */}
      <PanelSwitch
        label="Draw with finger"
        className="hidden any-pointer-coarse:flex"
        checked={fingerDraws}
        onChange={setFingerDrawing}
      />
    </section>
  );
}

function PanelSwitch({
  label,
  checked,
  onChange,
  className = 'flex',
}: {
  label: string;
  checked: boolean;
  onChange: (on: boolean) => void;
  className?: string;
}) {
  return (
    <Field className={`${className} items-center justify-between gap-2`}>
      <Label className="font-medium text-slate-700">{label}</Label>
      <Switch
        checked={checked}
        onChange={onChange}
        className="group inline-flex h-6 w-11 items-center rounded-full bg-slate-300 transition data-[checked]:bg-brand-600"
      >
        <span className="size-4 translate-x-1 rounded-full bg-white transition group-data-[checked]:translate-x-6" />
      </Switch>
    </Field>
  );
}
