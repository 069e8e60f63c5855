// A list taller than a browser lets an element be: Chromium stops an element
// at 33 554 428 px, a million rows of 36 px are 36 000 000, and the scroll's
// bottom was row ~932 000. Past a cap the grid's spacer stops growing and its
// scroll position is scaled onto the rows' own pixels: scrollTop 0 is the
// first row, the scroll's end the last, and the rows around the position are
// drawn at their own height. Under the cap nothing is scaled. The cap: spacer-cap.ts.

export interface ScrollGeometry {
  /** The rows' own height: rows × row height. */
  content: number;
  /** The scroll element's visible height. */
  viewport: number;
  /** The tallest the spacer may be. */
  cap: number;
}

/** The spacer's height: the rows' own, up to the cap. */
export function spacerHeight({ content, cap }: ScrollGeometry): number {
  return Math.min(content, cap);
}

/** The element's scroll range and the rows' own: what one end-to-end scroll covers in each. */
function ranges({ content, viewport, cap }: ScrollGeometry): { scroll: number; rows: number } {
  // A viewport at least as tall as the cap cannot scroll: the range stays positive so the scale is finite.
  return { scroll: Math.max(cap - viewport, 1), rows: Math.max(content - viewport, 0) };
}

/** The offset into the rows shown at the top of the viewport at `scrollTop`. */
export function rowsOffset(scrollTop: number, geometry: ScrollGeometry): number {
  if (geometry.content <= geometry.cap) return scrollTop;
  const { scroll, rows } = ranges(geometry);
  return (scrollTop * rows) / scroll;
}

/** The scrollTop that shows the rows from `offset` at the top of the viewport (`rowsOffset`'s inverse). */
export function scrollTopFor(offset: number, geometry: ScrollGeometry): number {
  if (geometry.content <= geometry.cap) return offset;
  const { scroll, rows } = ranges(geometry);
  return rows === 0 ? 0 : (offset * scroll) / rows;
}

/**
 * Where, in the spacer, a row starting at `start` in the rows' own pixels is
 * drawn while the viewport shows the rows from `offset`: at its own distance
 * from the viewport's top, so rows keep their height around any position.
 */
export function drawnAt(start: number, offset: number, geometry: ScrollGeometry): number {
  return start - offset + scrollTopFor(offset, geometry);
}

/** Rows a block of the grid holds: its rows are drawn from the block's start (see `blockStart`). */
const BLOCK_ROWS = 1_000;

/**
 * Where the block holding row `index` starts, in the rows' own pixels. The
 * rows drawn are offsets from it inside one element placed for the scroll
 * (`drawnAt(blockStart, …)`): past the cap each scroll moves every row on
 * screen by a different amount than the spacer, and moving that one element
 * keeps the rows themselves (memoized) from drawing again until the block changes.
 */
export function blockStart(index: number, rowHeight: number): number {
  return Math.floor(index / BLOCK_ROWS) * BLOCK_ROWS * rowHeight;
}

/**
 * The grid body as the virtualizer sees it: scrolled, sized and written in the
 * rows' own pixels. TanStack Virtual reads the element it is given for its
 * position (`scrollTop`) and for its scroll range (`scrollHeight -
 * clientHeight`, which also bounds every `scrollToIndex`), so mapping its
 * scroll callbacks alone would leave those reads in the spacer's pixels.
 */
export class ScaledScrollElement {
  private content = 0;
  private viewport: number;
  /** The last position written and the scrollTop it was written as (see `scrollTop`). */
  private written: { offset: number; scrollTop: number } | null = null;

  constructor(
    readonly element: HTMLElement,
    readonly cap: number,
  ) {
    this.viewport = element.clientHeight;
  }

  geometry(): ScrollGeometry {
    return { content: this.content, viewport: this.viewport, cap: this.cap };
  }

  /** The rows' own height, set as the row count changes. */
  setContent(content: number): void {
    if (content === this.content) return;
    this.content = content;
    this.written = null;
  }

  /** The visible height, as the virtualizer measured it (`observeScaledRect`). */
  setViewport(viewport: number): void {
    if (viewport === this.viewport) return;
    this.viewport = viewport;
    this.written = null;
  }

  get scrollTop(): number {
    const scrollTop = this.element.scrollTop;
    // A write reads back as the position asked for: the browser rounds the scrollTop it was given,
    // and scaled, that rounding would read as a move of a pixel or more, which the virtualizer takes
    // for the person scrolling away from its target.
    if (this.written !== null && Math.abs(scrollTop - this.written.scrollTop) < 1) return this.written.offset;
    return rowsOffset(scrollTop, this.geometry());
  }

  get scrollLeft(): number {
    return this.element.scrollLeft;
  }

  get scrollHeight(): number {
    const { element } = this;
    return rowsOffset(element.scrollHeight - element.clientHeight, this.geometry()) + element.clientHeight;
  }

  get scrollWidth(): number {
    return this.element.scrollWidth;
  }

  get clientHeight(): number {
    return this.element.clientHeight;
  }

  get clientWidth(): number {
    return this.element.clientWidth;
  }

  get ownerDocument(): Document {
    return this.element.ownerDocument;
  }

  get style(): CSSStyleDeclaration {
    return this.element.style;
  }

  scrollTo(options: ScrollToOptions): void {
    const offset = options.top ?? 0;
    const scrollTop = scrollTopFor(offset, this.geometry());
    this.written = { offset, scrollTop };
    this.element.scrollTo({ ...options, top: scrollTop });
  }

  addEventListener(...args: Parameters<HTMLElement['addEventListener']>): void {
    this.element.addEventListener(...args);
  }

  removeEventListener(...args: Parameters<HTMLElement['removeEventListener']>): void {
    this.element.removeEventListener(...args);
  }
}

/**
 * The virtualizer's `observeElementRect` for a `ScaledScrollElement`: its
 * own observer cannot watch an object that is not an element.
 */
export function observeScaledRect(
  instance: { scrollElement: ScaledScrollElement | null },
  report: (rect: { width: number; height: number }) => void,
): (() => void) | undefined {
  const scaled = instance.scrollElement;
  if (scaled === null) return undefined;
  const { element } = scaled;
  const measure = () => {
    scaled.setViewport(element.clientHeight);
    report({ width: element.clientWidth, height: element.clientHeight });
  };
  measure();
  const view = element.ownerDocument.defaultView;
  if (!view?.ResizeObserver) return undefined;
  const observer = new view.ResizeObserver(measure);
  observer.observe(element);
  return () => observer.disconnect();
}
