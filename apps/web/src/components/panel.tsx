import { Skeleton, theme } from 'antd';
import type { CSSProperties, ReactNode } from 'react';

export interface PanelProps {
  /** Header text; with `extra`, the header row. */
  title?: ReactNode;
  /** Header content on the right (a link). */
  extra?: ReactNode;
  /** A skeleton instead of the content. */
  loading?: boolean | undefined;
  /** Tighter header and padding. */
  size?: 'default' | 'small';
  /** A border around the panel (default) or none. */
  variant?: 'outlined' | 'borderless';
  style?: CSSProperties;
  /** The content box (padding). */
  bodyStyle?: CSSProperties;
  children?: ReactNode;
}

/**
 * A white, rounded content box with an optional header: what the screens used antd's Card for,
 * drawn from the same theme tokens, without Card's code (Card imports Tabs for its tab list:
 * ~11 KiB that every page using a Card paid).
 */
export const Panel = ({ title, extra, loading, size = 'default', variant = 'outlined', style, bodyStyle, children }: PanelProps) => {
  const { token } = theme.useToken();
  const small = size === 'small';
  const padding = small ? token.paddingSM : token.paddingLG;
  const line = `${token.lineWidth}px ${token.lineType} ${token.colorBorderSecondary}`;
  return (
    <div
      style={{
        position: 'relative',
        background: token.colorBgContainer,
        borderRadius: token.borderRadiusLG,
        border: variant === 'outlined' ? line : undefined,
        ...style,
      }}
    >
      {(title || extra) && (
        <div
          style={{
            display: 'flex',
            alignItems: 'center',
            gap: token.marginXS,
            minHeight: small ? 38 : 56,
            padding: `0 ${padding}px`,
            borderBottom: line,
            color: token.colorTextHeading,
            fontWeight: token.fontWeightStrong,
            fontSize: small ? token.fontSize : token.fontSizeLG,
          }}
        >
          <div style={{ flex: 1, minWidth: 0, overflow: 'hidden', textOverflow: 'ellipsis', whiteSpace: 'nowrap' }}>{title}</div>
          {extra && <div style={{ marginInlineStart: 'auto', fontWeight: 'normal', fontSize: token.fontSize }}>{extra}</div>}
        </div>
      )}
      <div style={{ padding, ...bodyStyle }}>{loading ? <Skeleton active /> : children}</div>
    </div>
  );
};
