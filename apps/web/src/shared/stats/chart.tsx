import { useEffect, useRef } from 'react';
import { type ChartOption, echarts } from './echarts';

interface ChartProps {
  option: ChartOption;
  height?: number;
  /** What the chart shows (the canvas itself says nothing to a screen reader). */
  label: string;
}

/** One ECharts canvas: created on mount, updated with its option, resized with its box, disposed on unmount. */
export default function Chart({ option, height = 280, label }: ChartProps) {
  const box = useRef<HTMLDivElement>(null);
  const chart = useRef<echarts.ECharts | null>(null);
  useEffect(() => {
    if (!box.current) return;
    const instance = echarts.init(box.current, undefined, { renderer: 'canvas' });
    chart.current = instance;
    const observer = new ResizeObserver(() => instance.resize());
    observer.observe(box.current);
    return () => {
      observer.disconnect();
      instance.dispose();
      chart.current = null;
    };
  }, []);
  useEffect(() => {
    chart.current?.setOption(option, { notMerge: true });
  }, [option]);
  return <div ref={box} role="img" aria-label={label} style={{ width: '100%', height }} />;
}
