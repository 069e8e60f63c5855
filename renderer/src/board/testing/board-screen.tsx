// The section board of project p-web as its component tests show it: its
// sections, the board rendered once the workspace is loaded, and a card found
// by its title. Each test answers the bridge's reads itself.
import { act, render, screen } from '@testing-library/react';
import { loadWorkspace } from '../../store/workspace-store';
import { SectionBoard } from '../section-board';

/** A section of project p-web, as the workspace lists it. */
export function boardSection(section_id: string, name: string, position: number) {
  return { section_id, name, scope_type: 'project', scope_id: 'p-web', position, task_count: 0 };
}

/** Loads the workspace and renders p-web's board, waiting for its first card ('Write docs'). */
export async function renderProjectBoard(): Promise<void> {
  await act(() => loadWorkspace());
  render(<SectionBoard scopeType="project" scopeId="p-web" />);
  await screen.findByText('Write docs');
}

/** The card, a button, that shows a task's title. */
export function card(title: string): HTMLButtonElement {
  const button = screen.getByText(title).closest('button');
  if (button === null) throw new Error(`no card ${title}`);
  return button;
}
