// @vitest-environment happy-dom
// The filter bar as a person uses it, asserted as the query the list then asks
// main for (taskListQuery over the list's state): status chips, search and
// where it looks, the panel's pick lists and dates, sorting, the count of
// filters on and Clear; and a scope's own key never offered on top of it.
import { act, render, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, test } from 'vitest';
import type { ListScope } from '../store/view-store';
import { loadWorkspace } from '../store/workspace-store';
import { fakeBridgeEachTest } from '../testing/fake-bridge';
import { project, workspaceOf } from '../testing/screen-fixtures';
import { FilterBar } from './filter-bar';
import { taskListQuery } from './list-query';
import { useList } from './list-store';

const bridge = fakeBridgeEachTest();

async function showBar(scope: ListScope) {
  bridge.answer('workspace:get', () =>
    workspaceOf({
      projects: [project('p-web', 'Website'), project('p-app', 'App')],
      members: [{ user_id: 'u-grace', username: 'grace', active: true, role: null }],
      tags: ['bug', 'ux'],
    }),
  );
  await act(() => loadWorkspace());
  render(<FilterBar scope={scope} />);
  return () => {
    const { filters, sort } = useList.getState();
    return taskListQuery(scope, filters, sort);
  };
}

describe('FilterBar', () => {
  test('a status chip narrows the list to it and a second press takes it off', async () => {
    const user = userEvent.setup();
    const query = await showBar({ kind: 'all' });
    const status = within(screen.getByRole('group', { name: 'Status' }));
    const inProgress = status.getByRole('button', { name: 'In progress' });
    expect(inProgress.getAttribute('aria-pressed')).toBe('false');

    await user.click(inProgress);
    await user.click(status.getByRole('button', { name: 'Blocked' }));
    expect(inProgress.getAttribute('aria-pressed')).toBe('true');
    expect(query().filter).toEqual({ status: ['in_progress', 'blocked'] });

    await user.click(inProgress);
    expect(query().filter).toEqual({ status: ['blocked'] });
  });

  test('search looks in every field or the title only; Escape empties it first', async () => {
    const user = userEvent.setup();
    const query = await showBar({ kind: 'all' });
    const search = screen.getByLabelText<HTMLInputElement>('Search tasks');
    await user.type(search, 'footer');
    expect(query().filter).toEqual({ search: 'footer' });
    await user.selectOptions(screen.getByLabelText('Search in'), 'Title only');
    expect(query().filter).toEqual({ search: 'footer', search_fields: 'title' });

    await user.click(search);
    await user.keyboard('{Escape}');
    expect(search.value).toBe('');
    expect(query().filter).toEqual({});
  });

  test('the Filters button counts the filters on, and Clear takes them all off', async () => {
    const user = userEvent.setup();
    const query = await showBar({ kind: 'all' });
    expect(screen.queryByRole('button', { name: 'Clear' })).toBeNull();
    await user.type(screen.getByLabelText('Search tasks'), 'x');
    await user.click(screen.getByRole('button', { name: 'Done' }));
    const filtersButton = screen.getByRole('button', { name: 'Filters (2)' });

    await user.click(filtersButton);
    expect(filtersButton.getAttribute('aria-expanded')).toBe('true');
    await user.click(screen.getByRole('checkbox', { name: 'Overdue only' }));
    expect(screen.getByRole('button', { name: 'Filters (3)' })).toBe(filtersButton);

    await user.click(screen.getByRole('button', { name: 'Clear' }));
    expect(query().filter).toEqual({});
    expect(filtersButton.textContent).toBe('Filters');
  });

  test("the panel's pick lists add a choice as a removable chip, and its dates bound the list", async () => {
    const user = userEvent.setup();
    const query = await showBar({ kind: 'all' });
    expect(screen.queryByRole('region', { name: 'More filters' })).toBeNull();
    await user.click(screen.getByRole('button', { name: 'Filters' }));
    const panel = within(screen.getByRole('region', { name: 'More filters' }));

    await user.selectOptions(panel.getByLabelText('Project'), 'Website');
    await user.selectOptions(panel.getByLabelText('Assignee'), 'Me');
    await user.selectOptions(panel.getByLabelText('Tags'), 'ux');
    await user.type(panel.getByLabelText('Due until'), '2030-12-31');
    expect(query().filter).toEqual({
      project: ['p-web'],
      assignee: ['me'],
      tags: ['ux'],
      due_before: '2030-12-31',
    });
    // What is chosen is not offered again.
    expect(within(panel.getByLabelText('Project')).queryByRole('option', { name: 'Website' })).toBeNull();

    await user.click(panel.getByRole('button', { name: 'Remove project Website' }));
    expect(query().filter).toEqual({ assignee: ['me'], tags: ['ux'], due_before: '2030-12-31' });
  });

  test("a project's list does not offer the project filter, and its own project stays in the query", async () => {
    const user = userEvent.setup();
    const query = await showBar({ kind: 'project', projectId: 'p-app' });
    await user.click(screen.getByRole('button', { name: 'Filters' }));
    const panel = within(screen.getByRole('region', { name: 'More filters' }));
    expect(panel.queryByLabelText('Project')).toBeNull();
    expect(panel.getByLabelText('Assignee')).toBeTruthy();
    expect(query().filter).toEqual({ project: ['p-app'] });
  });

  test('sorting: a column chosen, and the order flipped by its button', async () => {
    const user = userEvent.setup();
    const query = await showBar({ kind: 'all' });
    await user.selectOptions(screen.getByLabelText('Sort by'), 'Sort: Due date');
    await user.click(screen.getByRole('button', { name: 'Ascending; switch to descending' }));
    expect(query()).toMatchObject({ sort_by: 'due_date', sort_order: 'desc' });
    expect(screen.getByRole('button', { name: 'Descending; switch to ascending' })).toBeTruthy();
  });
});

describe('the search language in the search box', () => {
  const box = () => screen.getByRole<HTMLInputElement>('combobox', { name: 'Search tasks' });

  test('a typed query sets the chips, and the free words are the search', async () => {
    const user = userEvent.setup();
    const query = await showBar({ kind: 'all' });
    await user.type(box(), 'status:blocked -priority:low project:"website" login');
    expect(query().filter).toEqual({
      status: ['blocked'],
      priority: ['medium', 'high', 'urgent'],
      project: ['p-web'],
      search: 'login',
    });
    const status = within(screen.getByRole('group', { name: 'Status' }));
    expect(status.getByRole('button', { name: 'Blocked' }).getAttribute('aria-pressed')).toBe('true');
    await user.click(screen.getByRole('button', { name: 'Filters (4)' }));
    expect(screen.getByRole('button', { name: 'Remove project Website' })).toBeTruthy();
  });

  test('a chip rewrites the text, and taking it off takes its term out', async () => {
    const user = userEvent.setup();
    const query = await showBar({ kind: 'all' });
    await user.type(box(), 'login');
    const status = within(screen.getByRole('group', { name: 'Status' }));
    await user.click(status.getByRole('button', { name: 'Blocked' }));
    expect(box().value).toBe('status:blocked login');
    await user.click(screen.getByRole('button', { name: 'Filters (2)' }));
    const panel = within(screen.getByRole('region', { name: 'More filters' }));
    await user.selectOptions(panel.getByLabelText('Project'), 'Website');
    await user.type(panel.getByLabelText('Due until'), '2030-12-31');
    expect(box().value).toBe('status:blocked project:Website due<=2030-12-31 login');
    await user.click(status.getByRole('button', { name: 'Blocked' }));
    expect(box().value).toBe('project:Website due<=2030-12-31 login');
    expect(query().filter).toEqual({ project: ['p-web'], due_before: '2030-12-31', search: 'login' });
  });

  test('an unknown key or value is said under the box with its reason, and the rest still applies', async () => {
    const user = userEvent.setup();
    const query = await showBar({ kind: 'all' });
    await user.type(box(), 'colour:red assignee:nobody type:bug');
    expect(query().filter).toEqual({ task_type: ['bug'] });
    expect(box().getAttribute('aria-invalid')).toBe('true');
    const problems = screen.getByTestId('search-problems');
    expect(problems.textContent).toContain("colour:red not applied: unknown key 'colour'");
    expect(problems.textContent).toContain("assignee:nobody not applied: no member is called 'nobody'");
    expect(box().getAttribute('aria-describedby')).toBe(problems.id);

    // A chip keeps what could not be applied, for the person to mend.
    await user.click(
      within(screen.getByRole('group', { name: 'Status' })).getByRole('button', { name: 'Blocked' }),
    );
    expect(box().value).toBe('status:blocked type:bug colour:red assignee:nobody');
    expect(problems.querySelectorAll('li')).toHaveLength(2);
  });

  test('keys and values complete from the keyboard', async () => {
    const user = userEvent.setup();
    const query = await showBar({ kind: 'all' });
    await user.type(box(), 'pri');
    const list = screen.getByRole('listbox', { name: 'Search suggestions' });
    expect(box().getAttribute('aria-expanded')).toBe('true');
    expect(
      within(list)
        .getAllByRole('option')
        .map((o) => o.textContent),
    ).toEqual(['priority:Priority']);
    await user.keyboard('{ArrowDown}');
    const option = within(list).getByRole('option');
    expect(option.getAttribute('aria-selected')).toBe('true');
    expect(box().getAttribute('aria-activedescendant')).toBe(option.id);
    await user.keyboard('{Enter}');
    expect(box().value).toBe('priority:');
    expect(within(list).getAllByRole('option')).toHaveLength(4);

    // A value half typed is not yet said to be wrong while it is offered; once the list is closed it is.
    await user.keyboard('u');
    expect(screen.getByTestId('search-problems').textContent).toBe('');
    await user.keyboard('{Escape}');
    expect(screen.getByTestId('search-problems').textContent).toContain("priority cannot be 'u'");
    await user.type(box(), 'r');
    await user.keyboard('{ArrowDown}{Enter}');
    expect(box().value).toBe('priority:urgent ');
    expect(query().filter).toEqual({ priority: ['urgent'] });
    expect(box().getAttribute('aria-expanded')).toBe('false');

    // Escape closes the list first, then empties the box.
    await user.type(box(), 'ass');
    expect(box().getAttribute('aria-expanded')).toBe('true');
    await user.keyboard('{Escape}');
    expect(box().getAttribute('aria-expanded')).toBe('false');
    expect(box().value).toBe('priority:urgent ass');
    await user.keyboard('{Escape}');
    expect(box().value).toBe('');
  });

  test('a half-typed value leaves the filters as they were, so the list is not asked again', async () => {
    const user = userEvent.setup();
    await showBar({ kind: 'all' });
    await user.type(box(), 'login status:');
    const before = useList.getState().filters;
    expect(before.search).toBe('login');
    await user.type(box(), 'blo');
    expect(useList.getState().filters).toBe(before);
    await user.type(box(), 'cked');
    expect(useList.getState().filters.choices.status).toEqual(['blocked']);
  });

  test('a name typed before the workspace arrived resolves once it does', async () => {
    const user = userEvent.setup();
    render(<FilterBar scope={{ kind: 'all' }} />);
    await user.type(box(), 'project:website');
    expect(screen.getByTestId('search-problems').textContent).toContain("no project is named 'website'");
    bridge.answer('workspace:get', () => workspaceOf({ projects: [project('p-web', 'Website')] }));
    await act(() => loadWorkspace());
    expect(useList.getState().filters.choices.project).toEqual(['p-web']);
    expect(screen.getByTestId('search-problems').textContent).toBe('');
  });

  test("in a project's list, a project term is said to change nothing", async () => {
    const user = userEvent.setup();
    const query = await showBar({ kind: 'project', projectId: 'p-app' });
    await user.type(box(), 'project:website');
    expect(query().filter).toEqual({ project: ['p-app'] });
    expect(screen.getByTestId('search-problems').textContent).toContain(
      "project: not applied: this list shows one project's tasks; open All tasks to choose another project",
    );
  });
});
