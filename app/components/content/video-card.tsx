import { useState } from 'react';
import type { ContentBlock } from '../../../server/shared/content-blocks';
import { useT } from '~/lib/i18n';
import { useBrokenImage } from '~/lib/use-broken-image';
import { PlayIcon } from '../home/icons';

type Video = Extract<ContentBlock, { type: 'video' }>;

/**
 * A poster card with a play button, the title and the duration. With JS the video plays in
 * place; without it the play button is a link to the file.
 */
export function VideoCard({ video, headingLevel = 3 }: { video: Video; headingLevel?: 2 | 3 }) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const t = useT();
  const [playing, setPlaying] = useState(false);
  const image = useBrokenImage(video.poster);
  const poster = (
    <>
      {video.poster && !image.broken ? (
        <img
          ref={image.ref}
          className="video-card__poster"
          src={video.poster}
          alt=""
          loading="lazy"
          decoding="async"
          width={640}
          height={360}
          onError={image.onError}
        />
      ) : null}
      <span className="video-card__play" aria-hidden="true">
        <PlayIcon size={26} />
      </span>
      {video.duration ? (
        <span className="video-card__duration">
          <span className="sr-only">{t('content.duration')} </span>
          {video.duration}
        </span>
      ) : null}
    </>
  );
  return (
    <li className="video-card">
      <div className="video-card__media">
        {playing && video.src ? (
          <video className="video-card__video" src={video.src} poster={video.poster} controls autoPlay playsInline />
        ) : video.src ? (
          <a
            className="video-card__link"
            href={video.src}
            aria-label={t('content.play', { title: video.title })}
            onClick={(event) => {
              event.preventDefault();
              setPlaying(true);
            }}
          >
            {poster}
          </a>
        ) : (
          <div className="video-card__link">{poster}</div>
        )}
      </div>
      <Heading className="video-card__title">{video.title}</Heading>
    </li>
  );
}
