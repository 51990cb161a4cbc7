import type { ContentBlock } from '../../../server/shared/content-blocks';
import { ChevronIcon } from '../ui/icons';
import { VideoCard } from './video-card';

type Group =
  | { kind: 'qa'; items: Extract<ContentBlock, { type: 'qa' }>[] }
  | { kind: 'video'; items: Extract<ContentBlock, { type: 'video' }>[] }
  | { kind: 'single'; block: Exclude<ContentBlock, { type: 'qa' | 'video' }> };

/** Runs of questions become one accordion and runs of videos one grid. */
function groupBlocks(blocks: readonly ContentBlock[]): Group[] {
  const groups: Group[] = [];
  for (const block of blocks) {
    const last = groups.at(-1);
    if (block.type === 'qa') {
      if (last?.kind === 'qa') last.items.push(block);
      else groups.push({ kind: 'qa', items: [block] });
    } else if (block.type === 'video') {
      if (last?.kind === 'video') last.items.push(block);
      else groups.push({ kind: 'video', items: [block] });
    } else {
      groups.push({ kind: 'single', block });
    }
  }
  return groups;
}

/** A content page's body (ContentBlock, server/shared/content-blocks.ts): prose, FAQ accordion, video cards. */
export function ContentBlocks({ blocks }: { blocks: readonly ContentBlock[] }) {
  const groups = groupBlocks(blocks);
  // The page's first question starts open, so the accordion reads as one at a glance.
  const firstQa = groups.findIndex((group) => group.kind === 'qa');
  // Card titles sit one level below the nearest section heading (h2), or at h2 when there is none.
  const headingBefore = (index: number) =>
    groups.slice(0, index).some((group) => group.kind === 'single' && group.block.type === 'heading');
  return (
    <>
      {groups.map((group, index) => {
        if (group.kind === 'qa') {
          return (
            <div key={index} className="faq">
              {group.items.map((item, itemIndex) => (
                <details
                  key={itemIndex}
                  className="faq__item"
                  open={index === firstQa && itemIndex === 0 ? true : undefined}
                >
                  <summary className="faq__question">
                    <span>{item.question}</span>
                    <ChevronIcon className="faq__chevron" size={20} />
                  </summary>
                  <div className="faq__answer">
                    <p>{item.answer}</p>
                  </div>
                </details>
              ))}
            </div>
          );
        }
        if (group.kind === 'video') {
          return (
            <ul key={index} className="video-grid" role="list">
              {group.items.map((video, itemIndex) => (
                <VideoCard key={itemIndex} video={video} headingLevel={headingBefore(index) ? 3 : 2} />
              ))}
            </ul>
          );
        }
        const { block } = group;
        if (block.type === 'heading')
          return (
            <h2 key={index} className="prose__heading">
              {block.text}
            </h2>
          );
        if (block.type === 'list') {
          return (
            <ul key={index} className="prose__list">
              {block.items.map((item, itemIndex) => (
                <li key={itemIndex}>{item}</li>
              ))}
            </ul>
          );
        }
        return (
          <p key={index} className="prose__paragraph">
            {block.text}
          </p>
        );
      })}
    </>
  );
}
