import { describe, expect, it } from 'vitest';
import { countTicks, labelledIndexes, nearestIndex, seriesPaths, xOf, yOf, type PlotBox } from '../../src/client/features/dashboard/trend-geometry';

const box: PlotBox = { left: 10, top: 5, width: 290, height: 100 };

describe('countTicks', () => {
  it.each([
    [0, [0, 1]],
    [1, [0, 1]],
    [3, [0, 1, 2, 3]],
    [7, [0, 2, 4, 6, 8]],
    [10, [0, 5, 10]],
    [38, [0, 10, 20, 30, 40]],
    [120, [0, 50, 100, 150]],
  ])('counts from 0 to at least %i in round whole steps', (max, expected) => {
    expect(countTicks(max)).toEqual(expected);
  });
});

describe('positions and paths', () => {
  it('spreads points from the left to the right edge and puts 0 at the bottom', () => {
    expect(xOf(0, 30, box)).toBe(10);
    expect(xOf(29, 30, box)).toBe(300);
    expect(xOf(0, 1, box)).toBe(155);
    expect(yOf(0, 8, box)).toBe(105);
    expect(yOf(8, 8, box)).toBe(5);
  });

  it('draws one point per value and closes the area along the bottom', () => {
    const { line, area } = seriesPaths([0, 4, 8], 8, box);
    expect(line).toBe('M10.0,105.0L155.0,55.0L300.0,5.0');
    expect(area).toBe(`${line}L300.0,105.0L10.0,105.0Z`);
    expect(seriesPaths([], 8, box)).toEqual({ line: '', area: '' });
  });
});

describe('labelledIndexes', () => {
  it('labels every day when there is room', () => {
    expect(labelledIndexes(4, 290, 48)).toEqual([0, 1, 2, 3]);
  });

  it('keeps labels apart and always labels the last day', () => {
    const indexes = labelledIndexes(30, 290, 48);
    expect(indexes.at(-1)).toBe(29);
    const gap = (indexes[1] ?? 0) - (indexes[0] ?? 0);
    expect((gap / 29) * 290).toBeGreaterThanOrEqual(48);
    expect(labelledIndexes(0, 290, 48)).toEqual([]);
  });
});

describe('nearestIndex', () => {
  it('finds the point nearest to the pointer, clamped to the series', () => {
    expect(nearestIndex(10, 30, box)).toBe(0);
    expect(nearestIndex(300, 30, box)).toBe(29);
    expect(nearestIndex(155, 3, box)).toBe(1);
    expect(nearestIndex(-50, 30, box)).toBe(0);
    expect(nearestIndex(900, 30, box)).toBe(29);
    expect(nearestIndex(123, 1, box)).toBe(0);
  });
});
