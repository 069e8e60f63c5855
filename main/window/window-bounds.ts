// Where a window opens: the saved bounds when they still fit a display, moved
// and shrunk onto the display they overlap most when they do not (a monitor
// unplugged, a resolution changed), centred on the primary display otherwise.

export interface Rectangle {
  readonly x: number;
  readonly y: number;
  readonly width: number;
  readonly height: number;
}

export interface Size {
  readonly width: number;
  readonly height: number;
}

export interface PlaceWindowOptions {
  /** Bounds saved when the window last closed, if any. */
  readonly saved: Rectangle | undefined;
  /** The work areas of the displays (screen minus taskbar / menu bar); the primary display first. */
  readonly workAreas: readonly Rectangle[];
  readonly defaultSize: Size;
  readonly minimumSize: Size;
}

/** Bounds that lie entirely inside one work area (or at 0,0 with the default size if there is none). */
export function placeWindow(options: PlaceWindowOptions): Rectangle {
  const { saved, workAreas, defaultSize, minimumSize } = options;
  const primary = workAreas[0];
  if (primary === undefined) return { x: 0, y: 0, ...roundSize(defaultSize) };

  const wanted = saved && isUsable(saved) ? roundRectangle(saved) : undefined;
  if (wanted === undefined) return centreIn(primary, fitSize(defaultSize, primary, minimumSize));

  let best: Rectangle | undefined;
  let bestOverlap = 0;
  for (const area of workAreas) {
    const overlap = intersectionArea(wanted, area);
    if (overlap > bestOverlap) {
      best = area;
      bestOverlap = overlap;
    }
  }
  if (best === undefined) return centreIn(primary, fitSize(wanted, primary, minimumSize));

  const size = fitSize(wanted, best, minimumSize);
  return {
    x: clamp(wanted.x, best.x, best.x + best.width - size.width),
    y: clamp(wanted.y, best.y, best.y + best.height - size.height),
    ...size,
  };
}

/** At least the minimum size, at most the area (the area wins when it is smaller than the minimum). */
function fitSize(size: Size, area: Rectangle, minimum: Size): Size {
  return {
    width: Math.min(Math.max(Math.round(size.width), minimum.width), area.width),
    height: Math.min(Math.max(Math.round(size.height), minimum.height), area.height),
  };
}

function centreIn(area: Rectangle, size: Size): Rectangle {
  return {
    x: area.x + Math.floor((area.width - size.width) / 2),
    y: area.y + Math.floor((area.height - size.height) / 2),
    ...size,
  };
}

function intersectionArea(a: Rectangle, b: Rectangle): number {
  const width = Math.min(a.x + a.width, b.x + b.width) - Math.max(a.x, b.x);
  const height = Math.min(a.y + a.height, b.y + b.height) - Math.max(a.y, b.y);
  return width > 0 && height > 0 ? width * height : 0;
}

function clamp(value: number, low: number, high: number): number {
  return Math.min(Math.max(value, low), high);
}

function isUsable(rectangle: Rectangle): boolean {
  return [rectangle.x, rectangle.y, rectangle.width, rectangle.height].every(Number.isFinite);
}

function roundRectangle(rectangle: Rectangle): Rectangle {
  return { x: Math.round(rectangle.x), y: Math.round(rectangle.y), ...roundSize(rectangle) };
}

function roundSize(size: Size): Size {
  return { width: Math.round(size.width), height: Math.round(size.height) };
}
