import type { StatsOutput } from '@iot/contract';
import type { ChartOption } from './echarts';

type Label = (key: string) => string;

/** Daily registrations, activations and online peaks. */
export const trendOption = (s: StatsOutput, t: Label, series: ('registered' | 'activated' | 'online')[]): ChartOption => ({
  tooltip: { trigger: 'axis' },
  legend: { top: 0 },
  grid: { left: 48, right: 16, top: 36, bottom: 28 },
  xAxis: { type: 'category', data: s.series.map((r) => r.day), boundaryGap: false },
  yAxis: { type: 'value', minInterval: 1 },
  series: series.map((key) => ({
    name: t(`stats.fields.${key}`),
    type: 'line',
    showSymbol: s.series.length <= 31,
    data: s.series.map((r) => r[key]),
  })),
});

/** Online share now: online against the rest of the devices. */
export const shareOption = (s: StatsOutput, t: Label): ChartOption => ({
  tooltip: { trigger: 'item', formatter: '{b}: {c} ({d}%)' },
  legend: { bottom: 0 },
  series: [
    {
      type: 'pie',
      radius: ['45%', '70%'],
      label: { show: true, formatter: '{d}%' },
      data: [
        { name: t('stats.online_now'), value: s.totals.online, itemStyle: { color: '#389e0d' } },
        { name: t('stats.offline_now'), value: Math.max(0, s.totals.devices - s.totals.online), itemStyle: { color: '#bfbfbf' } },
      ],
    },
  ],
});

/** Horizontal bars, largest on top. */
export const barOption = (names: string[], values: { name: string; data: number[] }[]): ChartOption => ({
  tooltip: { trigger: 'axis', axisPointer: { type: 'shadow' } },
  legend: values.length > 1 ? { top: 0 } : undefined,
  grid: { left: 8, right: 24, top: values.length > 1 ? 32 : 8, bottom: 8, containLabel: true },
  xAxis: { type: 'value', minInterval: 1 },
  yAxis: { type: 'category', inverse: true, data: names, axisLabel: { width: 140, overflow: 'truncate' } },
  series: values.map((v) => ({ name: v.name, type: 'bar', data: v.data, barMaxWidth: 18 })),
});

/** Lines over days (any statistics: app users…). */
export const linesOption = (days: string[], values: { name: string; data: number[] }[]): ChartOption => ({
  tooltip: { trigger: 'axis' },
  legend: { top: 0 },
  grid: { left: 48, right: 16, top: 36, bottom: 28 },
  xAxis: { type: 'category', data: days, boundaryGap: false },
  yAxis: { type: 'value', minInterval: 1 },
  series: values.map((v) => ({ name: v.name, type: 'line', showSymbol: days.length <= 31, data: v.data })),
});
